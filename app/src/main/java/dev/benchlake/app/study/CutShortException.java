package dev.benchlake.app.study;

import dev.benchlake.analysis.report.CutShort;

/**
 * A study cut short with nothing to report (no comparison round completed): exit 1, its one line
 * the cut's sentence and why there is no report. study.json records the cut all the same.
 */
public final class CutShortException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CutShortException(CutShort cut, String why) {
    super(cut.sentence() + " " + why);
  }
}
