package dev.benchlake.loadgen;

import dev.benchlake.core.raw.RunDirectory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code benchlake loadgen} options that make {@link LoadgenCommand} build a given
 * {@link LoadgenConfig} again: how a command that plans runs in-process (a study) starts one as a
 * process of its own (a duet's side, under {@code taskset}), and the command line a user can run
 * to repeat it. Every option is written out, defaults included, so that the line says everything
 * the run did. Not carried: the environment (a child inherits its parent's) and the step barrier
 * (the caller adds {@code --barrier stdio} when it holds one).
 */
public final class LoadgenArgs {
  private LoadgenArgs() {}

  /** @throws IllegalArgumentException for a config no command line can give (e.g. a run that records nothing with an --out) */
  public static List<String> of(LoadgenConfig c) {
    List<String> args = new ArrayList<>();
    if (c.target() instanceof LoadgenConfig.Embedded e) {
      add(args, "--pg-version", Integer.toString(e.major()));
      e.settings().entrySet().stream().sorted(Map.Entry.comparingByKey())
          .forEach(s -> add(args, "--pg-setting", s.getKey() + "=" + s.getValue()));
      if (e.parentDir() != null) {
        add(args, "--pg-dir", e.parentDir().toString());
      }
    } else {
      LoadgenConfig.External x = (LoadgenConfig.External) c.target();
      add(args, "--jdbc-url", x.jdbcUrl());
      if (x.user() != null) {
        add(args, "--user", x.user());
      }
    }
    LoadgenConfig.WorkloadSpec w = c.workload();
    if (w.name() != null) {
      add(args, "--workload", w.name());
    }
    if (!w.steps().isEmpty()) {
      add(args, "--steps", String.join(",", w.steps()));
    }
    add(args, "--scale", LoadgenDefaults.number(w.scale()));
    if (!w.thinkMin().isZero() || !w.thinkMax().isZero()) {
      add(args, "--think-time", LoadgenDefaults.duration(w.thinkMin()) + ".." + LoadgenDefaults.duration(w.thinkMax()));
    }
    add(args, "--tables", Integer.toString(w.tables()));
    add(args, "--table-size", Integer.toString(w.tableSize()));
    add(args, "--range-size", Integer.toString(w.rangeSize()));
    add(args, "--rand-type", w.randType().id());
    w.scripts().forEach(s -> add(args, "--script", s));
    w.defines().entrySet().stream().sorted(Map.Entry.comparingByKey())
        .forEach(d -> add(args, "--define", d.getKey() + "=" + d.getValue()));
    if (c.skipLoad()) {
      args.add("--skip-load");
    }
    LoadgenConfig.Mode m = c.mode();
    switch (m.kind()) {
      case CLOSED -> add(args, "--clients", Integer.toString(m.clients()));
      case OPEN -> {
        add(args, "--clients", Integer.toString(m.clients()));
        add(args, "--rate", LoadgenDefaults.number(m.rate()));
        if (m.schedule() != null) {
          add(args, "--schedule", m.schedule().name().toLowerCase(java.util.Locale.ROOT));
        }
      }
      case BURST -> {
        add(args, "--burst", Integer.toString(m.burst()));
        add(args, "--pool", Integer.toString(m.pool()));
        if (m.poolTimeout() != null) {
          add(args, "--pool-timeout", LoadgenDefaults.duration(m.poolTimeout()));
        }
      }
    }
    if (c.tasks() != null) {
      add(args, "--tasks", Long.toString(c.tasks()));
    }
    duration(args, "--duration", c.duration());
    duration(args, "--read-duration", w.readDuration());
    duration(args, "--write-duration", w.writeDuration());
    duration(args, "--warmup", c.warmup());
    if (c.randomSeed() != null) {
      add(args, "--random-seed", Long.toString(c.randomSeed()));
    }
    add(args, "--between-steps", c.betweenSteps().id());
    if (!c.recordTasks()) {
      if (c.outDir() != null) {
        throw new IllegalArgumentException("a run that records nothing has no --out");
      }
      args.add("--no-record");
    }
    if (c.outDir() != null) {
      add(args, "--out", c.outDir().toString());
    }
    if (!c.tasksFile().equals(RunDirectory.TASKS)) {
      add(args, "--tasks-file", c.tasksFile());
    }
    if (c.runId() != null) {
      add(args, "--run-id", c.runId());
    }
    // The handicap's label is loadgen's own: --handicap-stretch gives it.
    c.labels().forEach((k, v) -> {
      if (!(k.equals(LoadgenConfig.HANDICAP_LABEL) && c.handicapStretch() > 0)) {
        add(args, "--label", k + "=" + v);
      }
    });
    if (c.handicapStretch() != 0) {
      add(args, "--handicap-stretch", LoadgenDefaults.number(c.handicapStretch()));
    }
    if (c.profileHz() != null) {
      add(args, "--profile", Integer.toString(c.profileHz()));
    }
    duration(args, "--connect-timeout", c.connectTimeout());
    duration(args, "--query-timeout", c.queryTimeout());
    duration(args, "--max-outage", c.maxOutage());
    return args;
  }

  private static void add(List<String> args, String option, String value) {
    args.add(option);
    args.add(value);
  }

  private static void duration(List<String> args, String option, Duration d) {
    if (d != null) {
      add(args, option, LoadgenDefaults.duration(d));
    }
  }
}
