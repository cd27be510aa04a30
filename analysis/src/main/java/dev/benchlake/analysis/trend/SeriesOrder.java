package dev.benchlake.analysis.trend;

import dev.benchlake.core.cli.BadInputException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The order of a trend's values of {@code --by}, which must mean something, as its change points
 * and "previous version" depend on it:
 * <ul>
 *   <li>{@link Kind#TIME}: every value a date ({@code 2026-11-04}) or a timestamp (ISO 8601, with an
 *       offset or in UTC): by the time it names;
 *   <li>{@link Kind#VERSION}: every value a version, dot-separated parts whose first is a number
 *       ({@code 9.6}, {@code 16}, {@code 8.0.28}, {@code v1.2}): by {@link VersionOrder};
 *   <li>{@link Kind#ORDER_BY}: with {@code --order-by KEY}, by each value's key (the smallest of its
 *       runs'), compared as times when all are, else as versions (numbers as numbers), ties by the value;
 *   <li>{@link Kind#BASE_FIRST}: two values of anything else and a {@code --base}: the base, then the
 *       other (a plain A/B, as {@code --by os --base linux}: there is no "order" to get wrong);
 *   <li>{@link Kind#NAMES}: more values of anything else (configurations, settings profiles) and a
 *       {@code --base}: the base, then the others by name. Each is compared against the base; what
 *       needs a series (change points, the comparisons between consecutive values, the gate) is left
 *       out and the report says so ({@link #names(String, String, Collection)});
 * </ul>
 * anything else (commits, names without a base) is bad input that says to add {@code --order-by}
 * or {@code --base}.
 */
final class SeriesOrder {
  /** How the values were put in order. */
  enum Kind { TIME, VERSION, ORDER_BY, BASE_FIRST, NAMES }

  private static final Pattern VERSION = Pattern.compile("^[vV]?\\d+(\\.[0-9A-Za-z_+~-]+)*$");

  private SeriesOrder() {}

  /**
   * @param keys each value's {@code --order-by} key; ignored without {@code orderBy}
   * @param labels the label keys the selected runs have (named in the message that asks for {@code --order-by})
   * @throws BadInputException when the values have no meaningful order, or a value has no key
   */
  static List<String> sort(TrendRequest request, Collection<String> values, Map<String, String> keys,
      Collection<String> labels) {
    Kind kind = kindOf(request, values);
    if (kind == null) {
      throw unordered(request, values, labels);
    }
    return switch (kind) {
      case TIME -> values.stream().sorted(Comparator.comparing(SeriesOrder::instant).thenComparing(Comparator.naturalOrder()))
          .toList();
      case VERSION -> values.stream().sorted(VersionOrder.INSTANCE).toList();
      case ORDER_BY -> byKey(request, values, keys);
      case BASE_FIRST, NAMES -> values.stream().sorted(Comparator.comparing((String v) -> !v.equals(request.base()))
          .thenComparing(Comparator.naturalOrder())).toList();
    };
  }

  static Kind kindOf(TrendRequest request, Collection<String> values) {
    return kindOf(request.base(), request.orderBy(), values);
  }

  private static Kind kindOf(String base, String orderBy, Collection<String> values) {
    if (orderBy != null) {
      return Kind.ORDER_BY;
    }
    if (values.stream().allMatch(SeriesOrder::isTime)) {
      return Kind.TIME;
    }
    if (values.stream().allMatch(v -> VERSION.matcher(v).matches())) {
      return Kind.VERSION;
    }
    if (values.size() <= 1 || values.size() == 2 && values.contains(base)) {
      return Kind.BASE_FIRST;
    }
    return base == null ? null : Kind.NAMES;
  }

  /**
   * Whether {@code values} are names with no series between them ({@link Kind#NAMES}): more than two,
   * neither dates nor versions, a base and no {@code --order-by}.
   */
  static boolean names(String base, String orderBy, Collection<String> values) {
    return kindOf(base, orderBy, values) == Kind.NAMES;
  }

  private static List<String> byKey(TrendRequest request, Collection<String> values, Map<String, String> keys) {
    List<String> without = values.stream().filter(v -> keys.get(v) == null).sorted().toList();
    if (!without.isEmpty()) {
      throw new BadInputException("--order-by " + request.orderBy() + ": the runs of " + request.by() + " "
          + String.join(", ", without.stream().limit(5).toList()) + (without.size() > 5 ? ", …" : "") + " have no "
          + request.orderBy() + "; give every run that label, or order by another");
    }
    boolean times = keys.values().stream().allMatch(SeriesOrder::isTime);
    Comparator<String> key = times ? Comparator.comparing(SeriesOrder::instant) : VersionOrder.INSTANCE;
    return values.stream().sorted(Comparator.comparing((String v) -> keys.get(v), key).thenComparing(Comparator.naturalOrder()))
        .toList();
  }

  /** The one line that says to add {@code --order-by}, naming the labels the runs have. */
  static BadInputException unordered(TrendRequest request, Collection<String> values, Collection<String> labels) {
    List<String> shown = values.stream().sorted().limit(3).toList();
    List<String> candidates = labels.stream().filter(l -> !l.equals(request.by())).sorted().toList();
    return new BadInputException("--by " + request.by() + " has values that are neither dates nor versions ("
        + String.join(", ", shown) + (values.size() > 3 ? ", …" : "") + "), so they have no order of their own: add"
        + " --order-by LABEL, a label or runs column that orders them (e.g. --by commit --order-by commit_time, or"
        + " --order-by started_at: when the runs began; "
        + (candidates.isEmpty() ? "the runs have no other label" : "labels the runs have: " + String.join(", ", candidates))
        + "), or --base VALUE to compare each against it, or use --by date");
  }

  /** Whether {@code value} is a date or an ISO 8601 timestamp. */
  static boolean isTime(String value) {
    return instantOrNull(value) != null;
  }

  /**
   * The days without a value between the first and the last, when every value is a date
   * ({@code yyyy-MM-dd}); empty otherwise. A nightly series' missing nights.
   */
  static List<String> missingDays(Collection<String> values) {
    Set<LocalDate> days = new TreeSet<>();
    for (String v : values) {
      LocalDate day = dateOrNull(v);
      if (day == null) {
        return List.of();
      }
      days.add(day);
    }
    List<String> missing = new ArrayList<>();
    if (days.size() < 2) {
      return missing;
    }
    LocalDate last = ((TreeSet<LocalDate>) days).last();
    for (LocalDate d = ((TreeSet<LocalDate>) days).first(); d.isBefore(last); d = d.plusDays(1)) {
      if (!days.contains(d)) {
        missing.add(d.toString());
      }
    }
    return List.copyOf(missing);
  }

  /** Whether {@code value} is a calendar day, {@code yyyy-MM-dd}. */
  static boolean isDate(String value) {
    return dateOrNull(value) != null;
  }

  private static Instant instant(String value) {
    return instantOrNull(value);
  }

  private static LocalDate dateOrNull(String value) {
    try {
      return LocalDate.parse(value.trim());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  static Instant instantOrNull(String value) {
    String v = value.trim();
    LocalDate day = dateOrNull(v);
    if (day != null) {
      return day.atStartOfDay(ZoneOffset.UTC).toInstant();
    }
    try {
      return OffsetDateTime.parse(v.replace(' ', 'T')).toInstant();
    } catch (DateTimeParseException e) {
      // not with an offset: a local date-time is UTC, as --by date's days are
    }
    try {
      return LocalDateTime.parse(v.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
