package org.boxoffice.bench.report;

import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.RunStats;
import org.boxoffice.bench.load.Sweep;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code chart.png}: throughput over time (hold attempts/s solid, successful holds/s dashed) and
 * latency over time (hold p99 solid, hold p50 dashed, seat-map read p99 dotted; log scale), one
 * colour per system, seconds since each run started on the x axis. Plain Java2D: a chart library
 * would be the bench's largest dependency for two line plots.
 */
public final class Chart {

    private static final int WIDTH = 1400;
    private static final int HEIGHT = 1000;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final Color[] COLORS = {new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4),
            new Color(0x2C, 0xA0, 0x2C), new Color(0x94, 0x67, 0xBD), new Color(0xFF, 0x7F, 0x0E)};
    private static final Stroke SOLID = new BasicStroke(2f);
    private static final Stroke DASHED = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[]{8f, 5f}, 0f);
    private static final Stroke DOTTED = new BasicStroke(1.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f,
            new float[]{2f, 4f}, 0f);

    private record Series(String label, Color color, Stroke stroke, List<double[]> points) {
    }

    private Chart() {
    }

    public static void write(List<RunResult> runs, String title, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString(title, LEFT, 30);

        List<Series> throughput = new ArrayList<>();
        List<Series> latency = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            RunResult r = runs.get(i);
            Color c = COLORS[i % COLORS.length];
            throughput.add(series(r.system() + " attempts/s", c, SOLID, r, RunStats.TimelinePoint::attemptsPerSecond));
            throughput.add(series(r.system() + " holds/s", c, DASHED, r, RunStats.TimelinePoint::holdsPerSecond));
            latency.add(series(r.system() + " hold p99", c, SOLID, r, RunStats.TimelinePoint::holdP99Ms));
            latency.add(series(r.system() + " hold p50", c, DASHED, r, RunStats.TimelinePoint::holdP50Ms));
            latency.add(series(r.system() + " seat map p99", c, DOTTED, r, RunStats.TimelinePoint::readP99Ms));
        }
        double maxT = runs.stream().flatMap(r -> r.timeline().stream()).mapToDouble(RunStats.TimelinePoint::t).max().orElse(1);
        panel(g, "Throughput per second", "requests/s", throughput, 60, 470, maxT, false, " s");
        panel(g, "Latency per second (ms, log scale)", "ms", latency, 540, 940, maxT, true, " s");
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    /**
     * {@code sweep.png}: per system, each trial of the rate sweep: hold p99 (solid) and p50 (dashed)
     * against the offered rate (log scale, the 250 ms budget as a grey line), and the answered
     * rate against the offered one (the diagonal is keeping up).
     */
    public static void writeSweep(Map<String, Sweep.Result> sweeps, String title, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString(title, LEFT, 30);
        List<Series> latency = new ArrayList<>();
        List<Series> rates = new ArrayList<>();
        double maxRate = 1;
        int i = 0;
        for (Map.Entry<String, Sweep.Result> e : sweeps.entrySet()) {
            Color c = COLORS[i++ % COLORS.length];
            List<Sweep.Step> steps = e.getValue().steps().stream()
                    .sorted(java.util.Comparator.comparingDouble(Sweep.Step::offeredPerSecond)).toList();
            latency.add(new Series(e.getKey() + " hold p99", c, SOLID,
                    steps.stream().map(s -> new double[]{s.offeredPerSecond(), s.holdP99Ms()}).toList()));
            latency.add(new Series(e.getKey() + " hold p50", c, DASHED,
                    steps.stream().map(s -> new double[]{s.offeredPerSecond(), s.holdP50Ms()}).toList()));
            rates.add(new Series(e.getKey() + " answered/s", c, SOLID,
                    steps.stream().map(s -> new double[]{s.offeredPerSecond(), s.achievedPerSecond()}).toList()));
            maxRate = Math.max(maxRate, steps.stream().mapToDouble(Sweep.Step::offeredPerSecond).max().orElse(1));
            if (e.getValue().budgetMs() > 0 && i == 1) {
                latency.add(new Series("budget " + (int) e.getValue().budgetMs() + " ms", Color.GRAY, DOTTED,
                        List.of(new double[]{0, e.getValue().budgetMs()}, new double[]{niceCeiling(maxRate) * 2, e.getValue().budgetMs()})));
            }
        }
        double xMax = niceCeiling(maxRate);
        rates.add(new Series("offered (keeping up)", Color.GRAY, DOTTED, List.of(new double[]{0, 0}, new double[]{xMax, xMax})));
        panel(g, "Hold latency vs offered rate (ms from intended send time, log scale)", "ms", latency, 60, 470, xMax, true, "/s");
        panel(g, "Answered vs offered hold attempts/s", "attempts/s", rates, 540, 940, xMax, false, "/s");
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static Series series(String label, Color color, Stroke stroke, RunResult r,
                                 ToDoubleFunction<RunStats.TimelinePoint> y) {
        List<double[]> points = new ArrayList<>();
        for (RunStats.TimelinePoint p : r.timeline()) {
            points.add(new double[]{p.t(), y.applyAsDouble(p)});
        }
        return new Series(label, color, stroke, points);
    }

    private static void panel(Graphics2D g, String title, String unit, List<Series> series, int top, int bottom,
                              double maxT, boolean log, String xSuffix) {
        int left = LEFT;
        int right = WIDTH - RIGHT;
        int plotTop = top + 30;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(title, left, top + 18);
        double maxY = series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[1]).max().orElse(1);
        double minY = log ? 0.1 : 0;
        maxY = log ? Math.pow(10, Math.ceil(Math.log10(Math.max(maxY, 1)))) : niceCeiling(maxY);
        double yMin = minY;
        double yMax = maxY;
        ToDoubleFunction<Double> yPixel = v -> {
            double f = log ? (Math.log10(Math.max(v, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))
                    : (v - yMin) / (yMax - yMin);
            return bottom - f * (bottom - plotTop);
        };
        double tMax = Math.max(1, Math.ceil(maxT));
        ToDoubleFunction<Double> xPixel = t -> left + Math.min(t, tMax) / tMax * (right - left);

        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.setStroke(new BasicStroke(1f));
        List<Double> ticks = new ArrayList<>();
        if (log) {
            for (double v = yMin; v <= yMax * 1.0001; v *= 10) {
                ticks.add(v);
            }
        } else {
            for (int i = 0; i <= 5; i++) {
                ticks.add(yMax * i / 5);
            }
        }
        for (double v : ticks) {
            int y = (int) yPixel.applyAsDouble(v);
            g.setColor(new Color(0xE0, 0xE0, 0xE0));
            g.drawLine(left, y, right, y);
            g.setColor(Color.DARK_GRAY);
            String label = v >= 1 || v == 0 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
            g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        int step = (int) Math.max(1, niceCeiling(tMax / 12));
        for (int t = 0; t <= tMax; t += step) {
            int x = (int) xPixel.applyAsDouble((double) t);
            g.setColor(new Color(0xF0, 0xF0, 0xF0));
            g.drawLine(x, plotTop, x, bottom);
            g.setColor(Color.DARK_GRAY);
            String label = String.format(Locale.ROOT, "%,d", t) + xSuffix;
            g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, bottom + 16);
        }
        g.setColor(Color.BLACK);
        g.drawRect(left, plotTop, right - left, bottom - plotTop);
        g.drawString(unit, 10, plotTop + 10);

        for (Series s : series) {
            g.setColor(s.color());
            g.setStroke(s.stroke());
            double[] previous = null;
            for (double[] p : s.points()) {
                if (previous != null && (!log || (previous[1] > 0 && p[1] > 0))) {
                    g.drawLine((int) xPixel.applyAsDouble(previous[0]), (int) yPixel.applyAsDouble(previous[1]),
                            (int) xPixel.applyAsDouble(p[0]), (int) yPixel.applyAsDouble(p[1]));
                }
                previous = p;
            }
        }
        int legendY = plotTop + 16;
        int legendX = right - 260;
        g.setColor(new Color(255, 255, 255, 220));
        g.fillRect(legendX - 10, plotTop + 4, 265, series.size() * 16 + 8);
        for (Series s : series) {
            g.setColor(s.color());
            g.setStroke(s.stroke());
            g.drawLine(legendX, legendY - 4, legendX + 30, legendY - 4);
            g.setColor(Color.BLACK);
            g.drawString(s.label(), legendX + 38, legendY);
            legendY += 16;
        }
        g.setStroke(new BasicStroke(1f));
    }

    private static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[]{1, 2, 2.5, 5, 10}) {
            if (m * magnitude >= v) {
                return m * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
