package dev.tidings;

import java.util.List;

/**
 * Input that breaks a rule of Tidings' formats or domain. {@link #problems()} says what is wrong, one
 * sentence per problem, and {@link #asProblems()} the same with the field each is about; the HTTP
 * layer answers 422 with them, on every route.
 */
public class InvalidInputException extends TidingsException {
  private final List<Problem> found;

  /** Problems about the request as a whole, or whose field the sentence alone names. */
  public InvalidInputException(List<String> problems) {
    this(describe(problems), problems.stream().map(Problem::of).toList());
  }

  public InvalidInputException(String problem) {
    this(List.of(problem));
  }

  public InvalidInputException(Problem problem) {
    this(problem.message(), List.of(problem));
  }

  private InvalidInputException(String summary, List<Problem> found) {
    super(summary);
    this.found = List.copyOf(found);
  }

  /** Every problem with its field path; at least one is expected, though none is not refused. */
  public static InvalidInputException of(List<Problem> found) {
    return new InvalidInputException(
        describe(found.stream().map(Problem::message).toList()), found);
  }

  /** The sentences alone, in order. */
  public List<String> problems() {
    return found.stream().map(Problem::message).toList();
  }

  @Override
  public List<Problem> asProblems() {
    return found.isEmpty() ? super.asProblems() : found;
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.INVALID;
  }

  /** Every problem, without the summary's preamble. */
  @Override
  public String detail() {
    return String.join("; ", problems());
  }

  private static String describe(List<String> problems) {
    if (problems.isEmpty()) return "invalid input";
    return problems.size() == 1
        ? problems.getFirst()
        : "invalid input: " + String.join("; ", problems);
  }
}
