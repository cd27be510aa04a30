package dev.benchlake.core.redaction;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Objects;
import org.apache.logging.log4j.core.Core;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.rewrite.RewritePolicy;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;

/**
 * {@link Redaction} for log4j: every event's message, and its exception's stack trace, scrubbed
 * before any appender formats it. bin/benchlake's {@code log4j2.properties} puts its console behind a
 * {@code Rewrite} appender with this policy ({@code type = Redaction}); under spark-submit and in the
 * standalone loadgen jar, whose logging benchlake does not configure, {@link RedactedLogs#install}
 * does the same to whatever appenders are there.
 *
 * <p>An event whose stack trace held a secret is logged with the scrubbed trace as part of its
 * message (an exception cannot be edited); every other event is passed on as it is.
 */
@Plugin(name = "Redaction", category = Core.CATEGORY_NAME, elementType = "rewritePolicy", printObject = true)
public final class RedactionRewritePolicy implements RewritePolicy {
  private RedactionRewritePolicy() {}

  @PluginFactory
  public static RedactionRewritePolicy create() {
    return new RedactionRewritePolicy();
  }

  @Override
  public LogEvent rewrite(LogEvent event) {
    String message = event.getMessage() == null ? null : event.getMessage().getFormattedMessage();
    String scrubbed = Redaction.scrub(message);
    String trace = null;
    String scrubbedTrace = null;
    if (event.getThrown() != null) {
      StringWriter text = new StringWriter();
      event.getThrown().printStackTrace(new PrintWriter(text));
      trace = text.toString();
      scrubbedTrace = Redaction.scrub(trace);
    }
    boolean traceChanged = !Objects.equals(trace, scrubbedTrace);
    if (Objects.equals(message, scrubbed) && !traceChanged) {
      return event;
    }
    Log4jLogEvent.Builder rewritten = new Log4jLogEvent.Builder(event).setMessage(new SimpleMessage(
        traceChanged ? scrubbed + System.lineSeparator() + scrubbedTrace.stripTrailing() : scrubbed));
    if (traceChanged) {
      rewritten.setThrown(null).setThrownProxy(null);
    }
    return rewritten.build();
  }

  @Override
  public String toString() {
    return "Redaction";
  }
}
