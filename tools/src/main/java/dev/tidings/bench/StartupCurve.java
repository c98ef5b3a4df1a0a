package dev.tidings.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A node's answered requests in each second since its process started, and the CPU seconds its JVM
 * used in each (which tells the node's own efficiency apart from what the machine's other work left
 * it), and what they say: its
 * steady throughput (the mean of the run's last {@code steadySeconds}, when the JIT has long finished)
 * and how soon it first served a given share of that.
 */
public record StartupCurve(
    String name,
    long[] perSecond,
    double[] cpuPerSecond,
    double firstAnswerSeconds,
    int steadySeconds) {
  public StartupCurve {
    if (cpuPerSecond.length != perSecond.length)
      throw new IllegalArgumentException("one CPU figure per second is needed");
    cpuPerSecond = cpuPerSecond.clone();
    if (steadySeconds < 1 || steadySeconds > perSecond.length)
      throw new IllegalArgumentException(
          "steadySeconds must be within 1.." + perSecond.length + " but was " + steadySeconds);
    perSecond = perSecond.clone();
  }

  /** The median of the last {@code steadySeconds}: a second the machine's other work took is no level. */
  public double steadyPerSecond() {
    long[] last = Arrays.copyOfRange(perSecond, perSecond.length - steadySeconds, perSecond.length);
    Arrays.sort(last);
    int middle = last.length / 2;
    return last.length % 2 == 1 ? last[middle] : (last[middle - 1] + last[middle]) / 2.0;
  }

  /**
   * Requests answered per CPU second the node's JVM used, in consecutive spans of {@code width}
   * seconds since start (0 for a span in which it used none): early on, the JIT compilers' share.
   */
  public double[] requestsPerCpuSecond(int width) {
    double[] ratios = new double[perSecond.length / width];
    for (int i = 0; i < ratios.length; i++) {
      double cpu = Arrays.stream(cpuPerSecond, i * width, (i + 1) * width).sum();
      long requests = Arrays.stream(perSecond, i * width, (i + 1) * width).sum();
      ratios[i] = cpu > 0 ? requests / cpu : 0;
    }
    return ratios;
  }

  /** Requests per second in consecutive spans of {@code width} seconds since start. */
  public double[] spans(int width) {
    double[] means = new double[perSecond.length / width];
    for (int i = 0; i < means.length; i++)
      means[i] = Arrays.stream(perSecond, i * width, (i + 1) * width).sum() / (double) width;
    return means;
  }

  /**
   * The end of the first second since start in which the node answered at least {@code share} of its
   * steady throughput (e.g. 12 when second 11-12 was the first), or -1 when none did.
   */
  public int secondsToReach(double share) {
    double bar = share * steadyPerSecond();
    for (int s = 0; s < perSecond.length; s++)
      if (perSecond[s] > 0 && perSecond[s] >= bar) return s + 1;
    return -1;
  }

  /** Requests answered in the first {@code seconds} since start. */
  public long answeredWithin(int seconds) {
    return Arrays.stream(perSecond, 0, Math.min(seconds, perSecond.length)).sum();
  }

  /**
   * One line per second of the first {@code seconds}: each curve's requests that second and a bar
   * scaled to the highest steady throughput among them, a {@code |} marking 80% of each one's own.
   */
  public static List<String> chart(List<StartupCurve> curves, int seconds) {
    double scale =
        curves.stream().mapToDouble(StartupCurve::steadyPerSecond).max().orElse(1);
    if (scale <= 0) scale = 1;
    int width = 30;
    List<String> lines = new ArrayList<>();
    var header = new StringBuilder("  s ");
    for (StartupCurve curve : curves)
      header.append(String.format(Locale.ROOT, " %-8.8s %-" + width + "s", curve.name(), ""));
    lines.add(header.toString().stripTrailing());
    for (int s = 0; s < seconds; s++) {
      var line = new StringBuilder(String.format(Locale.ROOT, "%3d ", s + 1));
      for (StartupCurve curve : curves) {
        long count = s < curve.perSecond.length ? curve.perSecond[s] : 0;
        int bar = (int) Math.round(Math.min(1.0, count / scale) * width);
        int mark = (int) Math.round(0.8 * curve.steadyPerSecond() / scale * width);
        var cells = new char[width + 1];
        Arrays.fill(cells, ' ');
        for (int i = 0; i < bar && i < cells.length; i++) cells[i] = '#';
        if (mark < cells.length && cells[mark] == ' ') cells[mark] = '|';
        line.append(String.format(Locale.ROOT, " %,8d %s", count, new String(cells)));
      }
      lines.add(line.toString().stripTrailing());
    }
    return lines;
  }
}
