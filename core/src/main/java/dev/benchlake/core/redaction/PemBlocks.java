package dev.benchlake.core.redaction;

/**
 * Rule 4 of {@link Redaction}: the body of a PEM block whose label says it is private ({@code
 * -----BEGIN PRIVATE KEY-----}, {@code RSA PRIVATE KEY}, {@code ENCRYPTED PRIVATE KEY}, {@code
 * OPENSSH PRIVATE KEY}…), from its BEGIN line to its END line, whatever is between: lines, blanks,
 * or the {@code \n} of a JSON string (a Google Cloud service account's {@code private_key}). A block
 * with no END line runs to the end of the text. The labels stay, so the reader sees what was there;
 * certificates and public keys are left alone.
 */
final class PemBlocks {
  static final String BEGIN = "-----BEGIN ";
  private static final String DASHES = "-----";
  private static final String END = "-----END";
  /** Longer than any label RFC 7468 and OpenSSH use. */
  private static final int MAX_LABEL_CHARS = 64;

  private PemBlocks() {}

  static void find(String text, Spans spans) {
    int begin = text.indexOf(BEGIN);
    while (begin >= 0) {
      int labelStart = begin + BEGIN.length();
      int labelEnd = text.indexOf(DASHES, labelStart);
      if (labelEnd < 0) {
        return;
      }
      if (!isPrivateLabel(text, labelStart, labelEnd)) {
        begin = text.indexOf(BEGIN, labelStart);
        continue;
      }
      int body = labelEnd + DASHES.length();
      int end = text.indexOf(END, body);
      if (end < 0) {
        spans.add(body, text.length());
        return;
      }
      spans.add(body, end);
      begin = text.indexOf(BEGIN, end);
    }
  }

  /** Where the block that starts at {@code begin} ends: after its END line's closing dashes, or the text's end. */
  static int blockEnd(String text, int begin) {
    int end = text.indexOf(END, begin);
    if (end < 0) {
      return text.length();
    }
    int close = text.indexOf(DASHES, end + END.length());
    return close < 0 || close - end > MAX_LABEL_CHARS ? end + END.length() : close + DASHES.length();
  }

  private static boolean isPrivateLabel(String text, int from, int to) {
    if (to - from > MAX_LABEL_CHARS) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (text.charAt(i) == '\n' || text.charAt(i) == '\r') {
        return false;
      }
    }
    return text.substring(from, to).contains("PRIVATE");
  }
}
