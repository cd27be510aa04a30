package dev.benchlake.ingest.format;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What the real world does to result files, as byte-level mutations of a real output: a copy cut
 * short by a crash or a full disk, an editor that changed line ends or added a BOM, a spreadsheet
 * that changed the delimiter, a log from a newer tool with extra fields, numbers no tool prints,
 * bytes that are not UTF-8. Each mutation is a pure function of its input and a seeded
 * {@link Random}, so a failing case is reproduced from its name and seed alone.
 */
enum HostileBytes {
  /** Cut at a random byte: mid-line, mid-number, even mid-UTF-8 character (a crash, a full disk). */
  TRUNCATE {
    @Override
    byte[] apply(byte[] in, Random r) {
      return in.length == 0 ? in : java.util.Arrays.copyOf(in, r.nextInt(in.length));
    }
  },
  /** Cut at a random line end: a report that stops mid-section. */
  CUT_AT_LINE {
    @Override
    byte[] apply(byte[] in, Random r) {
      List<byte[]> lines = lines(in);
      return lines.isEmpty() ? in : join(lines.subList(0, r.nextInt(lines.size())));
    }
  },
  /** Spaces, tabs and commas swapped for another delimiter (a spreadsheet round trip). */
  WRONG_DELIMITER {
    @Override
    byte[] apply(byte[] in, Random r) {
      byte[] from = {' ', '\t', ',', ';'};
      byte[] to = {'\t', ',', ';', '|', ' '};
      byte a = from[r.nextInt(from.length)];
      byte b = to[r.nextInt(to.length)];
      byte[] out = in.clone();
      for (int i = 0; i < out.length; i++) {
        if (out[i] == a) {
          out[i] = b;
        }
      }
      return out;
    }
  },
  /** A UTF-8 byte order mark in front (Windows editors). */
  BOM {
    @Override
    byte[] apply(byte[] in, Random r) {
      return concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, in);
    }
  },
  /** Some line ends become CRLF, some a lone CR, some lines lose their line end. */
  LINE_END_MIX {
    @Override
    byte[] apply(byte[] in, Random r) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + in.length / 20);
      for (byte b : in) {
        if (b == '\n') {
          switch (r.nextInt(6)) {
            case 0, 1 -> out.writeBytes(new byte[] {'\r', '\n'});
            case 2 -> out.write('\r');
            case 3 -> out.writeBytes(new byte[] {'\n', '\r', '\n'});
            default -> out.write('\n');
          }
        } else {
          out.write(b);
        }
      }
      return out.toByteArray();
    }
  },
  /** Bytes that are not UTF-8 (Latin-1 text, a lone continuation byte, an overlong form) at random places. */
  NON_UTF8 {
    @Override
    byte[] apply(byte[] in, Random r) {
      byte[][] garbage = {{(byte) 0xE9}, {(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xFF, (byte) 0xFE},
          {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}};
      return insertAtRandom(in, r, 1 + r.nextInt(8), () -> garbage[r.nextInt(garbage.length)]);
    }
  },
  /** NUL bytes in the middle of lines (a file pre-allocated by the OS and not fully written). */
  NUL_BYTES {
    @Override
    byte[] apply(byte[] in, Random r) {
      return insertAtRandom(in, r, 1 + r.nextInt(4), () -> new byte[1 + r.nextInt(3)]);
    }
  },
  /** Numbers no tool prints: beyond long and double, negative, NaN, infinities, hex, exponents. */
  HOSTILE_NUMBERS {
    @Override
    byte[] apply(byte[] in, Random r) {
      String[] numbers = {"99999999999999999999", "9223372036854775807", "9223372036854775808", "-1", "-0",
          "-9223372036854775808", "999999999999999999", "NaN", "-NaN", "Infinity", "-Infinity", "1e309", "1e-400",
          "0x1F", "1d", "4.9E-324", "1" + "0".repeat(400), "00000000000000000000000000001", "3.", ".5", "1_000"};
      String text = new String(in, StandardCharsets.ISO_8859_1);
      StringBuilder out = new StringBuilder(text.length() + 64);
      int i = 0;
      while (i < text.length()) {
        char c = text.charAt(i);
        if (Character.isDigit(c) && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))) {
          int end = i;
          while (end < text.length() && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '.')) {
            end++;
          }
          out.append(r.nextInt(8) == 0 ? numbers[r.nextInt(numbers.length)] : text.substring(i, end));
          i = end;
        } else {
          out.append(c);
          i++;
        }
      }
      return out.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
  },
  /** The first line again somewhere later (two files concatenated), or gone (a header cut off). */
  HEADER_TWICE_OR_NONE {
    @Override
    byte[] apply(byte[] in, Random r) {
      List<byte[]> lines = lines(in);
      if (lines.isEmpty()) {
        return in;
      }
      List<byte[]> out = new ArrayList<>(lines);
      if (r.nextBoolean()) {
        out.add(r.nextInt(out.size() + 1), lines.get(0));
      } else {
        out.remove(0);
      }
      return join(out);
    }
  },
  /** Lines repeated, dropped and swapped (a careless merge). */
  SHUFFLE_LINES {
    @Override
    byte[] apply(byte[] in, Random r) {
      List<byte[]> out = new ArrayList<>(lines(in));
      for (int k = 0, n = 1 + r.nextInt(6); k < n && !out.isEmpty(); k++) {
        int i = r.nextInt(out.size());
        switch (r.nextInt(3)) {
          case 0 -> out.add(i, out.get(r.nextInt(out.size())));
          case 1 -> out.remove(i);
          default -> java.util.Collections.swap(out, i, r.nextInt(out.size()));
        }
      }
      return join(out);
    }
  },
  /** A newer tool version: extra fields at the end of random lines, in the file's own delimiter. */
  EXTRA_FIELDS {
    @Override
    byte[] apply(byte[] in, Random r) {
      List<byte[]> out = new ArrayList<>();
      for (byte[] line : lines(in)) {
        if (r.nextInt(3) == 0) {
          String text = new String(line, StandardCharsets.ISO_8859_1);
          boolean newline = text.endsWith("\n");
          String body = newline ? text.substring(0, text.length() - 1) : text;
          char delimiter = body.indexOf('\t') >= 0 ? '\t' : body.indexOf(',') >= 0 ? ',' : ' ';
          StringBuilder extra = new StringBuilder(body);
          for (int k = 0, n = 1 + r.nextInt(3); k < n; k++) {
            extra.append(delimiter).append(r.nextInt(3) == 0 ? "future" : Integer.toString(r.nextInt(100_000)));
          }
          line = (extra + (newline ? "\n" : "")).getBytes(StandardCharsets.ISO_8859_1);
        }
        out.add(line);
      }
      return join(out);
    }
  },
  /** Markup, quotes and control characters where text is expected. */
  HOSTILE_TEXT {
    @Override
    byte[] apply(byte[] in, Random r) {
      String[] texts = {"<script>alert(1)</script>", "| a | b |", "\"", "'; drop table runs; --", "\\u0000", "\u0007",
          "\u001b[31m", "\u2028", "ünïcödé", "\"quoted, with comma\"", "${jndi:ldap://x}", "%n%s%s"};
      return insertAtRandom(in, r, 1 + r.nextInt(4), () -> texts[r.nextInt(texts.length)].getBytes(StandardCharsets.UTF_8));
    }
  };

  abstract byte[] apply(byte[] in, Random r);

  /** The lines of {@code in}, each with its {@code \n} (the last one may lack it). */
  static List<byte[]> lines(byte[] in) {
    List<byte[]> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < in.length; i++) {
      if (in[i] == '\n') {
        out.add(java.util.Arrays.copyOfRange(in, start, i + 1));
        start = i + 1;
      }
    }
    if (start < in.length) {
      out.add(java.util.Arrays.copyOfRange(in, start, in.length));
    }
    return out;
  }

  static byte[] join(List<byte[]> lines) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      byte[] line = lines.get(i);
      out.writeBytes(line);
      // A line moved from the end keeps its content but gets a line end, so lines stay lines.
      if (i < lines.size() - 1 && (line.length == 0 || line[line.length - 1] != '\n')) {
        out.write('\n');
      }
    }
    return out.toByteArray();
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] insertAtRandom(byte[] in, Random r, int count, java.util.function.Supplier<byte[]> what) {
    byte[] out = in;
    for (int k = 0; k < count; k++) {
      int at = out.length == 0 ? 0 : r.nextInt(out.length + 1);
      byte[] piece = what.get();
      byte[] next = new byte[out.length + piece.length];
      System.arraycopy(out, 0, next, 0, at);
      System.arraycopy(piece, 0, next, at, piece.length);
      System.arraycopy(out, at, next, at + piece.length, out.length - at);
      out = next;
    }
    return out;
  }

  /**
   * Lines as ingest counts them: one per {@code \n}, plus a last line without one; an empty file
   * has none. Written independently of {@code FileScanner} so that it can check it.
   */
  static long editorLineCount(byte[] content) {
    long newlines = 0;
    for (byte b : content) {
      if (b == '\n') {
        newlines++;
      }
    }
    return newlines + (content.length > 0 && content[content.length - 1] != '\n' ? 1 : 0);
  }
}
