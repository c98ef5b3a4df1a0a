package dev.tidings.web.dashboard;

import dev.tidings.journeys.Journey;
import dev.tidings.journeys.Step;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Where a journey's drawing puts each box and path: the entry on top, then the steps in an order where
 * every path points down (the order the journey lists them, wherever its paths allow); a path to the
 * box right below is a straight arrow, any other runs in a lane of its own to the right of the boxes,
 * so no two paths share a stretch of line. Boxes have fixed heights per kind, so the whole drawing is
 * laid out here, on the server, and needs no script.
 */
final class JourneyFlow {
  static final int BOX_WIDTH = 440;
  static final int GAP = 40;
  static final int LANE_WIDTH = 120;
  static final int ENTRY_HEIGHT = 88;
  static final int STEP_HEIGHT = 92;
  static final int SEND_HEIGHT = 136;
  /** Paths leave a box a little below its middle and arrive a little above, so they never meet. */
  private static final int STUB_OFFSET = 12;

  private static final int LABEL_CHARS = 16;

  /** A step and where its box goes, in pixels from the drawing's top. */
  record Placed(Step step, int top, int height) {}

  /** A path's label, at its start. */
  record Label(int x, int y, String text) {}

  /** The drawing: the boxes, and the paths between them as SVG path data with their labels. */
  record Layout(List<Placed> steps, List<String> paths, List<Label> labels, int width, int height) {
    /** The paths and labels as an inline SVG, every text escaped (it goes in the page as is). */
    String svg() {
      var out = new StringBuilder();
      out.append("<svg class=\"flow-lines\" width=\"")
          .append(width)
          .append("\" height=\"")
          .append(height)
          .append("\" aria-hidden=\"true\" focusable=\"false\">")
          .append("<defs><marker id=\"flow-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\"")
          .append(" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">")
          .append("<path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>");
      for (String path : paths)
        out.append("<path class=\"flow-path\" d=\"")
            .append(path)
            .append("\" marker-end=\"url(#flow-arrow)\"/>");
      for (Label label : labels)
        out.append("<text class=\"flow-label\" x=\"")
            .append(label.x())
            .append("\" y=\"")
            .append(label.y())
            .append("\">")
            .append(Html.escape(label.text()))
            .append("</text>");
      return out.append("</svg>").toString();
    }
  }

  private JourneyFlow() {}

  /** A send's box has a line more for its own lift when the journey has a goal to measure. */
  static final int LIFT_LINE = 22;

  static int height(Step step, boolean goal) {
    if (!(step instanceof Step.Send)) return STEP_HEIGHT;
    return goal ? SEND_HEIGHT + LIFT_LINE : SEND_HEIGHT;
  }

  static Layout of(Journey journey) {
    List<Step> order = order(journey);
    // node 0 is the entry, node k the k-th step in the drawing's order
    int nodes = order.size() + 1;
    int[] top = new int[nodes];
    int[] height = new int[nodes];
    height[0] = ENTRY_HEIGHT;
    for (int k = 1; k < nodes; k++) {
      height[k] = height(order.get(k - 1), journey.goal() != null);
      top[k] = top[k - 1] + height[k - 1] + GAP;
    }
    Map<String, Integer> node = new HashMap<>();
    for (int k = 1; k < nodes; k++) node.put(order.get(k - 1).id(), k);

    record Edge(int from, int to, String label) {}
    List<Edge> edges = new ArrayList<>();
    edges.add(new Edge(0, 1, ""));
    for (int k = 1; k < nodes; k++) {
      // two ways to one step (both arms of a branch) are one path with both labels
      Map<Integer, List<String>> targets = new LinkedHashMap<>();
      for (JourneyWords.Exit exit : JourneyWords.exits(order.get(k - 1))) {
        if (exit.to() == null || !node.containsKey(exit.to())) continue;
        targets.computeIfAbsent(node.get(exit.to()), t -> new ArrayList<>()).add(exit.label());
      }
      for (var target : targets.entrySet())
        edges.add(new Edge(
            k,
            target.getKey(),
            String.join(
                " / ", target.getValue().stream().filter(l -> !l.isEmpty()).toList())));
    }

    List<String> paths = new ArrayList<>();
    List<Label> labels = new ArrayList<>();
    int middle = BOX_WIDTH / 2;
    List<Edge> laned = new ArrayList<>();
    for (Edge edge : edges) {
      if (edge.to() == edge.from() + 1) {
        int from = top[edge.from()] + height[edge.from()];
        paths.add(String.format(Locale.ROOT, "M%d,%d V%d", middle, from, top[edge.to()] - 2));
        if (!edge.label().isEmpty())
          labels.add(new Label(middle + 10, from + GAP / 2 + 4, shortLabel(edge.label())));
      } else laned.add(edge);
    }
    // lanes as an interval colouring: each path takes the leftmost lane free over its whole span
    laned.sort(Comparator.comparingInt((Edge e) -> Math.min(e.from(), e.to()))
        .thenComparingInt(e -> Math.max(e.from(), e.to())));
    List<Integer> laneEnds = new ArrayList<>();
    for (Edge edge : laned) {
      int low = Math.min(edge.from(), edge.to());
      int high = Math.max(edge.from(), edge.to());
      int lane = 0;
      while (lane < laneEnds.size() && laneEnds.get(lane) >= low) lane++;
      if (lane == laneEnds.size()) laneEnds.add(high);
      else laneEnds.set(lane, high);
      int x = BOX_WIDTH + 30 + lane * LANE_WIDTH;
      int out = top[edge.from()] + height[edge.from()] / 2 + STUB_OFFSET;
      int in = top[edge.to()] + height[edge.to()] / 2 - STUB_OFFSET;
      paths.add(
          String.format(Locale.ROOT, "M%d,%d H%d V%d H%d", BOX_WIDTH, out, x, in, BOX_WIDTH + 3));
      if (!edge.label().isEmpty())
        labels.add(new Label(x + 6, in > out ? out + 16 : out - 6, shortLabel(edge.label())));
    }
    int width = BOX_WIDTH + 10 + (laneEnds.isEmpty() ? 0 : 30 + laneEnds.size() * LANE_WIDTH);
    List<Placed> placed = new ArrayList<>();
    for (int k = 1; k < nodes; k++) placed.add(new Placed(order.get(k - 1), top[k], height[k]));
    return new Layout(placed, paths, labels, width, top[nodes - 1] + height[nodes - 1] + 4);
  }

  /** A label short enough for its lane; the box's own line names every way in full. */
  private static String shortLabel(String label) {
    return label.length() <= LABEL_CHARS ? label : label.substring(0, LABEL_CHARS - 1) + "…";
  }

  /**
   * The steps in the drawing's order: those reached from the first, each after every step that leads
   * to it, ties kept in the journey's own order; then any that nothing reaches, the same way.
   */
  static List<Step> order(Journey journey) {
    List<Step> steps = journey.steps();
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < steps.size(); i++) index.put(steps.get(i).id(), i);
    Set<Integer> reached = new HashSet<>();
    List<Integer> frontier = new ArrayList<>(List.of(0));
    while (!frontier.isEmpty()) {
      int i = frontier.removeLast();
      if (!reached.add(i)) continue;
      for (String next : steps.get(i).nexts())
        if (next != null && index.containsKey(next)) frontier.add(index.get(next));
    }
    Set<Integer> rest = new HashSet<>();
    for (int i = 0; i < steps.size(); i++) if (!reached.contains(i)) rest.add(i);
    List<Step> order = new ArrayList<>();
    for (Set<Integer> group : List.of(reached, rest)) {
      Map<Integer, Integer> before = new HashMap<>();
      for (int i : group) before.putIfAbsent(i, 0);
      for (int i : group)
        for (String next : steps.get(i).nexts())
          if (next != null && group.contains(index.getOrDefault(next, -1)))
            before.merge(index.get(next), 1, Integer::sum);
      var ready = new PriorityQueue<Integer>();
      before.forEach((i, count) -> {
        if (count == 0) ready.add(i);
      });
      while (!ready.isEmpty()) {
        int i = ready.poll();
        order.add(steps.get(i));
        for (String next : steps.get(i).nexts()) {
          Integer to = next == null ? null : index.get(next);
          if (to != null && group.contains(to) && before.merge(to, -1, Integer::sum) == 0)
            ready.add(to);
        }
      }
    }
    return order;
  }
}
