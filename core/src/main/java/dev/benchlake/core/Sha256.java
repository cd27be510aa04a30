package dev.benchlake.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256, the one hash behind source keys, run ids of third-party results and lock names. */
public final class Sha256 {
  private Sha256() {}

  /** Lower-case hex SHA-256 of the UTF-8 bytes of {@code text}. */
  public static String hex(String text) {
    return HexFormat.of().formatHex(newDigest().digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** A fresh digest (they are not thread-safe). */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no SHA-256", e);
    }
  }
}
