package dev.benchlake.warehouse;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.lit;

import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Selects runs by {@code key=value[,key=value…]} (all must hold; {@code key!=value} negates).
 * A key is a column of {@code runs} ({@code os}, {@code db_major}, {@code run_id},
 * {@code source_format}, {@code status} …) or else a label key. Values compare as text.
 */
public final class RunSelector {
  private static final Pattern TERM = Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_.-]*)\\s*(!=|=)(.*)");
  /**
   * The columns of {@code runs} that hold no single value to compare (a map, a list, a JSON
   * document): neither a selector key nor a dimension to group runs by (trend's {@code --by}).
   */
  public static final List<String> NOT_SELECTABLE = List.of(WarehouseSchema.LABELS, "source_files", "metadata_json");

  /** One condition. */
  public record Term(String key, boolean negated, String value) {
    @Override
    public String toString() {
      return key + (negated ? "!=" : "=") + value;
    }
  }

  private final List<Term> terms;

  private RunSelector(List<Term> terms) {
    this.terms = List.copyOf(terms);
  }

  /** Every run. */
  public static RunSelector all() {
    return new RunSelector(List.of());
  }

  /** @throws BadInputException when {@code text} is not a selector */
  public static RunSelector parse(String text) {
    if (text == null || text.isBlank()) {
      return all();
    }
    List<Term> terms = new ArrayList<>();
    for (String part : text.split(",")) {
      Matcher m = TERM.matcher(part);
      if (!m.matches()) {
        throw new BadInputException("selector '" + text + "': '" + part.trim()
            + "' is not key=value (e.g. os=linux,db_major=16)");
      }
      terms.add(new Term(m.group(1), m.group(2).equals("!="), m.group(3).trim()));
    }
    return new RunSelector(terms);
  }

  public List<Term> terms() {
    return terms;
  }

  /** The runs that match. */
  public Dataset<Row> apply(Dataset<Row> runs) {
    List<String> columns = Arrays.asList(runs.columns());
    Dataset<Row> selected = runs;
    for (Term term : terms) {
      requireSelectable(term.key());
      Column value = columns.contains(term.key())
          ? col(term.key()).cast("string")
          : element_at(col(WarehouseSchema.LABELS), lit(term.key()));
      Column condition = term.negated()
          ? value.isNull().or(value.notEqual(term.value()))
          : value.equalTo(term.value());
      selected = selected.where(condition);
    }
    return selected;
  }

  /**
   * The runs that match, without Spark: the same conditions as {@link #apply(Dataset)}, for rows
   * read by the Kernel reader (a key is a column when the rows' schema has it).
   */
  public List<Row> filter(List<Row> runs) {
    // As apply does, whether or not there are runs to test.
    for (Term term : terms) {
      requireSelectable(term.key());
    }
    List<Row> selected = new ArrayList<>();
    for (Row run : runs) {
      if (matches(run)) {
        selected.add(run);
      }
    }
    return selected;
  }

  private boolean matches(Row run) {
    for (Term term : terms) {
      String value = valueOf(run, term.key());
      boolean holds = term.negated() ? value == null || !value.equals(term.value()) : term.value().equals(value);
      if (!holds) {
        return false;
      }
    }
    return true;
  }

  /**
   * What {@code key} names in a runs row read without Spark, as text: the column when the row has
   * it, cast as Spark's {@code cast(… as string)} casts it, else the label; null when neither holds
   * a value. The value a selector compares, and a trend's version of the run.
   */
  public static String valueOf(Row run, String key) {
    return Arrays.asList(run.schema().fieldNames()).contains(key)
        ? SparkText.cast(run.get(run.fieldIndex(key)))
        : labelsOf(run).get(key);
  }

  private static void requireSelectable(String key) {
    if (NOT_SELECTABLE.contains(key)) {
      throw new BadInputException("selector key '" + key + "' cannot be compared to a value");
    }
  }

  /** A runs row's labels (empty when it has none). */
  public static java.util.Map<String, String> labelsOf(Row run) {
    scala.collection.Map<String, String> map = run.getMap(run.fieldIndex(WarehouseSchema.LABELS));
    return map == null ? java.util.Map.of() : scala.jdk.javaapi.CollectionConverters.asJava(map);
  }

  @Override
  public String toString() {
    return terms.isEmpty() ? "(all runs)" : String.join(",", terms.stream().map(Term::toString).toList());
  }
}
