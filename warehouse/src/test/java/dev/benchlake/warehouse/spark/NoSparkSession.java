package dev.benchlake.warehouse.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;

/**
 * Proof that a piece of code starts no Spark session: none before it, none after. For fast-tier
 * tests, whose JVM never has one (the integration tier, which starts Spark, runs apart).
 */
public final class NoSparkSession {
  private NoSparkSession() {}

  /** {@code body}'s result, after checking that it built no Spark session. */
  public static <T> T during(Callable<T> body) throws Exception {
    assertThat(SparkSession.getDefaultSession().isDefined())
        .as("a Spark session before the code ran: run this fast-tier test in a JVM of its own").isFalse();
    T result = body.call();
    assertThat(SparkSession.getDefaultSession().isDefined()).as("the code started a Spark session").isFalse();
    return result;
  }
}
