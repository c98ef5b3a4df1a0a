package dev.tidings.web.dashboard;

import java.util.List;
import java.util.Map;

/**
 * One field of the journey editor as the {@code journey-field} template draws it: a text box (with a
 * unit beside it for a duration) or a choice, its label, the rows of the form it belongs to ({@code
 * when}: "type:wait until:for" shows it only for a wait of a fixed time, where a script runs) and its
 * error. Optional parts are lists of at most one, which a template shows or leaves out.
 *
 * @param switchName the name other fields' {@code when} give this choice
 */
record JourneyField(
    String id,
    String label,
    List<String> note,
    String value,
    String type,
    List<String> inputmode,
    List<String> list,
    boolean select,
    List<Option> options,
    List<String> switchName,
    boolean hasUnits,
    List<Option> units,
    List<String> when,
    boolean grow,
    List<String> error) {
  static JourneyField text(String id, String label, String value) {
    return new JourneyField(
        id, label, List.of(), value, "text", List.of(), List.of(), false, List.of(), List.of(),
        false, List.of(), List.of(), false, List.of());
  }

  static JourneyField number(String id, String label, String value) {
    return text(id, label, value).with("numeric");
  }

  static JourneyField time(String id, String label, String value) {
    return new JourneyField(
        id, label, List.of(), value, "time", List.of(), List.of(), false, List.of(), List.of(),
        false, List.of(), List.of(), false, List.of());
  }

  static JourneyField choice(String id, String label, List<Option> options) {
    return new JourneyField(
        id, label, List.of(), "", "", List.of(), List.of(), true, options, List.of(), false,
        List.of(), List.of(), false, List.of());
  }

  /** A whole number and its unit (seconds to days); the unit's field is {@code id + "Unit"}. */
  static JourneyField duration(String id, String label, String amount, String unit) {
    List<Option> units =
        JourneyForm.UNITS.stream().map(u -> new Option(u, u, u.equals(unit))).toList();
    return new JourneyField(
        id,
        label,
        List.of(),
        amount,
        "text",
        List.of("numeric"),
        List.of(),
        false,
        List.of(),
        List.of(),
        true,
        units,
        List.of(),
        false,
        List.of());
  }

  /** Choices of {@code values}, each labelled, the one equal to {@code chosen} selected. */
  static List<Option> options(Map<String, String> labels, String chosen) {
    return labels.entrySet().stream()
        .map(
            entry -> new Option(entry.getKey(), entry.getValue(), entry.getKey().equals(chosen)))
        .toList();
  }

  private JourneyField with(String inputmode) {
    return new JourneyField(
        id,
        label,
        note,
        value,
        type,
        List.of(inputmode),
        list,
        select,
        options,
        switchName,
        hasUnits,
        units,
        when,
        grow,
        error);
  }

  JourneyField note(String text) {
    return new JourneyField(
        id,
        label,
        List.of(text),
        value,
        type,
        inputmode,
        list,
        select,
        options,
        switchName,
        hasUnits,
        units,
        when,
        grow,
        error);
  }

  /** Offers the journey's step ids as the box is typed in. */
  JourneyField stepIds() {
    return new JourneyField(
        id,
        label,
        note,
        value,
        type,
        inputmode,
        List.of("step-ids"),
        select,
        options,
        switchName,
        hasUnits,
        units,
        when,
        grow,
        error);
  }

  JourneyField switches(String name) {
    return new JourneyField(
        id,
        label,
        note,
        value,
        type,
        inputmode,
        list,
        select,
        options,
        List.of(name),
        hasUnits,
        units,
        when,
        grow,
        error);
  }

  JourneyField when(String rule) {
    return new JourneyField(
        id,
        label,
        note,
        value,
        type,
        inputmode,
        list,
        select,
        options,
        switchName,
        hasUnits,
        units,
        List.of(rule),
        grow,
        error);
  }

  JourneyField grows() {
    return new JourneyField(
        id,
        label,
        note,
        value,
        type,
        inputmode,
        list,
        select,
        options,
        switchName,
        hasUnits,
        units,
        when,
        true,
        error);
  }

  /** The field with the errors found for its id, if any, as one text. */
  JourneyField errors(Map<String, List<String>> errors) {
    List<String> found = errors.getOrDefault(id, List.of());
    return new JourneyField(
        id,
        label,
        note,
        value,
        type,
        inputmode,
        list,
        select,
        options,
        switchName,
        hasUnits,
        units,
        when,
        grow,
        found.isEmpty() ? List.of() : List.of(String.join(" ", found)));
  }
}
