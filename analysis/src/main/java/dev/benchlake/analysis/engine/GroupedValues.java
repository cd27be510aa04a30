package dev.benchlake.analysis.engine;

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

  /** Reads rows of (group: string, value: long); rows with a null group or value are skipped. */
  static GroupedValues read(Iterator<InternalRow> rows) {
    Map<UTF8String, Integer> index = new HashMap<>();
    List<String> groups = new ArrayList<>();
    List<long[]> buffers = new ArrayList<>();
    List<int[]> fill = new ArrayList<>();
    UTF8String last = null;
    int lastIndex = -1;
    while (rows.hasNext()) {
      InternalRow row = rows.next();
      if (row.isNullAt(0) || row.isNullAt(1)) {
        continue;
      }
      UTF8String group = row.getUTF8String(0);
      if (last == null || !last.equals(group)) {
        Integer i = index.get(group);
        if (i == null) {
          i = groups.size();
          index.put(group.clone(), i);
          groups.add(group.toString());
          buffers.add(new long[1024]);
          fill.add(new int[1]);
        }
        last = group.clone();
        lastIndex = i;
      }
      int at = fill.get(lastIndex)[0]++;
      long[] buffer = buffers.get(lastIndex);
      if (at == buffer.length) {
        buffer = Arrays.copyOf(buffer, 2 * at);
        buffers.set(lastIndex, buffer);
      }
      buffer[at] = row.getLong(1);
    }
    List<long[]> values = new ArrayList<>();
    for (int i = 0; i < buffers.size(); i++) {
      values.add(Arrays.copyOf(buffers.get(i), fill.get(i)[0]));
    }
    return new GroupedValues(groups, values);
  }
}
