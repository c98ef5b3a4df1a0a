package dev.tidings;

import java.util.List;

/**
 * Input that breaks a rule of Tidings' formats or domain. {@link #problems()} says what is wrong, one
 * sentence per problem; the HTTP layer answers 422 with them in the detail.
 */
public class InvalidInputException extends TidingsException {
  private final List<String> problems;

  public InvalidInputException(List<String> problems) {
    super(describe(problems));
    this.problems = List.copyOf(problems);
  }

  public InvalidInputException(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.INVALID;
  }

  /** Every problem, without the summary's preamble. */
  @Override
  public String detail() {
    return String.join("; ", problems);
  }

  private static String describe(List<String> problems) {
    if (problems.isEmpty()) return "invalid input";
    return problems.size() == 1
        ? problems.getFirst()
        : "invalid input: " + String.join("; ", problems);
  }
}
