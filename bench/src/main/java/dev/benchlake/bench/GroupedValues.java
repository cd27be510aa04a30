package dev.benchlake.bench;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * One partition's values, as primitive arrays per group: what {@link ExactQuantiles} reads once
 * from its input and then scans in memory, as often as the refinement needs.
 */
final class GroupedValues implements Serializable {
  private static final long serialVersionUID = 1L;

  final List<String> groups;
  final List<long[]> values;

  private GroupedValues(List<String> groups, List<long[]> values) {
    this.groups = groups;
    this.values = values;
  }

  /**
   * Reads rows of (group: string, value: long); rows with a null group or value are skipped. Rows
   * of one group usually come together, so the group is looked up only when it changes.
   */
  static GroupedValues read(Iterator<InternalRow> rows) {
    Map<UTF8String, Integer> index = new HashMap<>();
    List<String> groups = new ArrayList<>();
    List<long[]> buffers = new ArrayList<>();
    int[] fills = new int[0];
    UTF8String last = null;
    long lastPrefix = 0;
    int current = -1;
    long[] buffer = null;
    int fill = 0;
    while (rows.hasNext()) {
      InternalRow row = rows.next();
      if (row.isNullAt(0) || row.isNullAt(1)) {
        continue;
      }
      UTF8String group = row.getUTF8String(0);
      if (last == null || !sameAsLast(group, last, lastPrefix)) {
        if (current >= 0) {
          buffers.set(current, buffer);
          fills[current] = fill;
        }
        Integer i = index.get(group);
        if (i == null) {
          i = groups.size();
          index.put(group.clone(), i);
          groups.add(group.toString());
          buffers.add(new long[1024]);
          fills = Arrays.copyOf(fills, groups.size());
        }
        last = group.clone();
        lastPrefix = last.getPrefix();
        current = i;
        buffer = buffers.get(i);
        fill = fills[i];
      }
      if (fill == buffer.length) {
        buffer = Arrays.copyOf(buffer, 2 * fill);
      }
      buffer[fill++] = row.getLong(1);
    }
    if (current >= 0) {
      buffers.set(current, buffer);
      fills[current] = fill;
    }
    List<long[]> values = new ArrayList<>(buffers.size());
    for (int i = 0; i < buffers.size(); i++) {
      values.add(Arrays.copyOf(buffers.get(i), fills[i]));
    }
    return new GroupedValues(groups, values);
  }

  /**
   * Whether {@code group} equals {@code last}, cheaply for the usual case: the same length and the
   * same first 8 bytes ({@link UTF8String#getPrefix}, zero-padded) decide strings of up to 8 bytes.
   */
  static boolean sameAsLast(UTF8String group, UTF8String last, long lastPrefix) {
    return group.numBytes() == last.numBytes() && group.getPrefix() == lastPrefix
        && (group.numBytes() <= 8 || group.equals(last));
  }
}
