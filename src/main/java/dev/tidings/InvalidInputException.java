package dev.tidings;

import java.util.List;

/** Input that breaks a rule; carries every problem found, each saying what is wrong and where. */
public class InvalidInputException extends TidingsException {
  private final List<String> problems;

  public InvalidInputException(List<String> problems) {
    super(String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  public InvalidInputException(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }
}
