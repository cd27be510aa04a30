package dev.benchlake.core.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Puts a test class (or method) in the integration tier: it starts Spark, PostgreSQL, Chromium,
 * pgbench, sysbench or a child JVM. Equivalent to {@code @Tag("integration")}, the string the
 * build's surefire executions select on: {@code mvn test} leaves these out, {@code mvn verify}
 * runs them.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(IntegrationTest.TAG)
public @interface IntegrationTest {
  /** The JUnit 5 tag of the integration tier, as the parent pom names it. */
  String TAG = "integration";
}
