package dev.benchlake.bench;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Lets the annotated code use an API that forbiddenapis forbids (its default suppress annotation is
 * any {@code **.SuppressForbidden}); {@link #reason()} says why it is needed there.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
@interface SuppressForbidden {
  String reason();
}
