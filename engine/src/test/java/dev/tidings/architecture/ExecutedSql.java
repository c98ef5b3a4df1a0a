package dev.tidings.architecture;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an executed statement touches and on whose behalf: the tables its text names (after FROM, JOIN,
 * INTO, UPDATE, USING, TABLE, TRUNCATE, COPY), each with the capability that wrote that part of the
 * text. A part between the marks of {@link dev.tidings.storage.PublishedSql} was written by the owner
 * the mark names; the rest by the capability that runs the statement, the innermost of Tidings' frames
 * on the stack outside the shared plumbing. A table name a capability put together from pieces is whole
 * again here, which is what a scan of string literals cannot see.
 */
final class ExecutedSql {
  /**
   * Packages whose code runs statements on a capability's behalf (the bulk importer merges into the
   * table the capability names) or a test's, never its own.
   */
  private static final Set<String> PLUMBING =
      Set.of("storage", "imports", "architecture", "testing");

  private static final Pattern MARK =
      Pattern.compile("/\\*published by ([a-z]+)\\*/|/\\*end ([a-z]+)\\*/");
  private static final Pattern IGNORED = Pattern.compile(
      "--[^\\n]*|/\\*.*?\\*/|'(?:[^']|'')*'|\\$([A-Za-z_]*)\\$.*?\\$\\1\\$", Pattern.DOTALL);
  private static final Pattern TOKEN =
      Pattern.compile("\"([^\"]+)\"|([A-Za-z_][A-Za-z0-9_$]*)|(\\S)");
  private static final Set<String> BEFORE_A_TABLE =
      Set.of("from", "join", "into", "update", "using", "table", "truncate", "copy");
  private static final Set<String> FUNCTIONS_HERE = Set.of("from", "join", "using");
  private static final Set<String> SKIPPED = Set.of("only", "lateral", "if", "exists");
  private static final Set<String> NOT_AN_ALIAS = Set.of(
      "where",
      "join",
      "inner",
      "left",
      "right",
      "full",
      "cross",
      "natural",
      "on",
      "using",
      "group",
      "order",
      "limit",
      "offset",
      "for",
      "union",
      "except",
      "intersect",
      "set",
      "values",
      "select",
      "returning",
      "window",
      "having",
      "default",
      "do",
      "fetch",
      "tablesample",
      "with");

  private ExecutedSql() {}

  /** A table the statement names, and the capability whose text named it. */
  record Touch(String by, String table) {}

  /** One crossing: {@code by} touched {@code table}, which {@code owner} owns. */
  record Crossing(String by, String table, String owner, String sql) {
    String key() {
      return by + " -> " + table;
    }
  }

  /** The tables {@code sql} names, each with who named it: {@code caller} outside the marks. */
  static List<Touch> touches(String sql, String caller) {
    List<Touch> touches = new ArrayList<>();
    Deque<String> writers = new ArrayDeque<>();
    writers.push(caller);
    Matcher marks = MARK.matcher(sql);
    int from = 0;
    while (marks.find()) {
      for (String table : tablesIn(sql.substring(from, marks.start())))
        touches.add(new Touch(writers.peek(), table));
      if (marks.group(1) != null) writers.push(marks.group(1));
      else if (writers.size() > 1 && writers.peek().equals(marks.group(2))) writers.pop();
      else throw new IllegalArgumentException("an end mark without its start: " + sql);
      from = marks.end();
    }
    for (String table : tablesIn(sql.substring(from)))
      touches.add(new Touch(writers.peek(), table));
    return touches;
  }

  /** Every name that stands where a table does, lower-cased, without its schema. */
  static List<String> tablesIn(String sql) {
    List<String> tokens = new ArrayList<>();
    Matcher matcher = TOKEN.matcher(IGNORED.matcher(sql).replaceAll(" "));
    while (matcher.find()) {
      if (matcher.group(1) != null) tokens.add("\"" + matcher.group(1));
      else if (matcher.group(2) != null) tokens.add(matcher.group(2).toLowerCase(Locale.ROOT));
      else tokens.add(matcher.group(3));
    }
    List<String> tables = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      if (!BEFORE_A_TABLE.contains(tokens.get(i))) continue;
      int at = i + 1;
      while (true) {
        while (at < tokens.size() && SKIPPED.contains(tokens.get(at))) at++;
        Optional<Name> name = nameAt(tokens, at);
        if (name.isEmpty()) break;
        at = name.get().next();
        // after FROM, JOIN or USING a name with arguments is a function; elsewhere what follows in
        // parentheses is the table's columns
        boolean read = FUNCTIONS_HERE.contains(tokens.get(i));
        if (read && at < tokens.size() && tokens.get(at).equals("(")) break;
        tables.add(name.get().name());
        if (at < tokens.size() && tokens.get(at).equals("as")) at++;
        if (at < tokens.size() && isWord(tokens.get(at)) && !NOT_AN_ALIAS.contains(tokens.get(at)))
          at++;
        if (at < tokens.size() && tokens.get(at).equals(",")) at++;
        else break;
      }
    }
    return tables;
  }

  private record Name(String name, int next) {}

  /** A possibly qualified name at {@code at}: its last part, and where what follows it starts. */
  private static Optional<Name> nameAt(List<String> tokens, int at) {
    if (at >= tokens.size() || !isWord(tokens.get(at))) return Optional.empty();
    String name = tokens.get(at);
    int next = at + 1;
    while (next + 1 < tokens.size()
        && tokens.get(next).equals(".")
        && isWord(tokens.get(next + 1))) {
      name = tokens.get(next + 1);
      next += 2;
    }
    return Optional.of(new Name(name.startsWith("\"") ? name.substring(1) : name, next));
  }

  private static boolean isWord(String token) {
    char first = token.charAt(0);
    return first == '"' || first == '_' || Character.isLetter(first);
  }

  /**
   * The capability that runs a statement with this stack: the innermost frame of a class under {@code
   * dev.tidings.<capability>.} outside the plumbing; empty when only tests and plumbing are on it.
   */
  static Optional<String> callerOf(StackTraceElement[] stack) {
    for (StackTraceElement frame : stack) {
      String type = frame.getClassName();
      if (!type.startsWith("dev.tidings.")) continue;
      String rest = type.substring("dev.tidings.".length());
      int dot = rest.indexOf('.');
      if (dot < 0) continue; // a class of the root package: shared values, never a capability
      String capability = rest.substring(0, dot);
      if (!PLUMBING.contains(capability)) return Optional.of(capability);
    }
    return Optional.empty();
  }

  /** The crossings of one statement, by the ownership map {@code owners} (table -> capability). */
  static List<Crossing> crossings(String sql, String caller, Map<String, String> owners) {
    List<Crossing> crossings = new ArrayList<>();
    for (Touch touch : touches(sql, caller)) {
      String owner = owners.get(touch.table());
      if (owner != null && !owner.equals(touch.by()))
        crossings.add(new Crossing(touch.by(), touch.table(), owner, sql));
    }
    return crossings;
  }
}
