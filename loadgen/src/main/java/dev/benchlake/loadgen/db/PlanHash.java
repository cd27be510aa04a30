package dev.benchlake.loadgen.db;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * A plan's hash that two sides agree on when they ran the same plan: the text of {@code EXPLAIN}
 * without what varies with the data and the task rather than with the plan. Costs and row
 * estimates ({@code (cost=… rows=… width=…)}) change with table statistics and cost settings; the
 * constants of a custom plan change with each task's parameters, and a generic plan shows
 * {@code $1} where a custom one shows the constant. Each becomes {@code ?}, so a generic and a
 * custom plan of the same nodes hash alike (whether each was generic is recorded apart).
 */
public final class PlanHash {
  private static final Pattern COSTS = Pattern.compile(" *\\(cost=[^)]*\\)");
  /**
   * A quoted literal with its cast, e.g. {@code '{1,2}'::integer[]}, {@code 'x'::character varying}.
   * Written as an unrolled, possessive loop: the plain {@code (?:[^']|'')*} recursed once a character
   * in java.util.regex and overflowed the stack on a custom plan's array of 1,000 constants
   * (mytools' random-points_range=1000 on PostgreSQL 16), which killed the run.
   */
  private static final Pattern LITERAL = Pattern.compile(
      "'[^']*+(?:''[^']*+)*+'(?:::[a-z_][a-z0-9_]*(?: varying| precision| without time zone| with time zone)?(?:\\[\\])*)?");
  private static final Pattern PARAMETER = Pattern.compile("\\$\\d+");
  private static final Pattern NUMBER = Pattern.compile("(?<![\\w.$])-?\\d+(?:\\.\\d+)?(?![\\w.])");
  /** A generic plan's list of parameters, e.g. {@code ARRAY[$1, $2]}, where a custom one has one array literal. */
  private static final Pattern PARAMETER_ARRAY = Pattern.compile("ARRAY\\[\\?(?:, \\?)*\\](?:::[a-z_][a-z0-9_]*\\[\\])?");
  private static final Pattern TRAILING_SPACE = Pattern.compile("[ \\t]+(?=\\n|$)");

  private PlanHash() {}

  /** The plan's text with costs, row estimates and constants as {@code ?}. */
  public static String normalised(String plan) {
    String s = COSTS.matcher(plan.replace("\r\n", "\n")).replaceAll("");
    s = LITERAL.matcher(s).replaceAll("?");
    s = PARAMETER.matcher(s).replaceAll("?");
    s = NUMBER.matcher(s).replaceAll("?");
    s = PARAMETER_ARRAY.matcher(s).replaceAll("?");
    return TRAILING_SPACE.matcher(s).replaceAll("").strip();
  }

  /** The first 16 hex digits of the SHA-256 of {@link #normalised}. */
  public static String of(String plan) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(normalised(plan).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
