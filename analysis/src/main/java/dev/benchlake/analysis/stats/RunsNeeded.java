package dev.benchlake.analysis.stats;

import org.apache.commons.math3.distribution.NormalDistribution;

/** STAND-IN for branch trend's verdict core (replaced at merge): runs per group for 80 % power. */
public final class RunsNeeded {
  private RunsNeeded() {}

  public static int perGroup(double sdLog, double alpha, double margin) {
    NormalDistribution z = new NormalDistribution(null, 0, 1);
    double effect = Math.log1p(margin);
    double n = 2 * Math.pow((z.inverseCumulativeProbability(1 - alpha / 2) + z.inverseCumulativeProbability(0.8)) * sdLog / effect, 2);
    return (int) Math.max(2, Math.ceil(n) + 1);
  }
}
