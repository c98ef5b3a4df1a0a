package dev.tidings.imports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.ChildJvm;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hostile files of every format, each far larger than the heap (600 MiB in one element, comment, line
 * or cell; 4 GiB of gzip from 4 MiB), read through the import's reading path in a JVM of its own whose
 * whole heap is 64 MiB and which exits on running out of it: each is refused with its line and the limit,
 * or its huge row is, and none is held. (The reading needs some 32 MiB of heap; before these limits an
 * XML element was held whole, and a JVM of any heap a node has ran out of it.)
 */
@Timeout(300)
class HostileInputTest {
  private static final List<String> SMALL_HEAP =
      List.of("-Xmx64m", "-XX:+ExitOnOutOfMemoryError", "-XX:+UseSerialGC");

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      XML_TEXT                   | file refused at line 6: the text at line 6 is longer than 262144 characters
      XML_CDATA                  | file refused at line 6: the XML at line 6 has a tag, comment, CDATA section or processing instruction longer than 1048576 bytes
      XML_COMMENT                | file refused at line 6: the XML at line 6 has a tag, comment, CDATA section or processing instruction longer than 1048576 bytes
      XML_ATTRIBUTE              | file refused at line 6: the XML at line 6 has a tag, comment, CDATA section or processing instruction longer than 1048576 bytes
      XML_PROCESSING_INSTRUCTION | file refused at line 6: the XML at line 6 has a tag, comment, CDATA section or processing instruction longer than 1048576 bytes
      XML_BOMB                   | : the gzip expands more than 100 times
      TSV_BOMB                   | : the gzip expands more than 100 times
      CSV_BOMB                   | : the gzip expands more than 100 times
      JSON_LINES_BOMB            | : the gzip expands more than 100 times
      TSV_LINE                   | file refused at line 2: the line at 2 is longer than 262144 characters
      CSV_LINE                   | file refused at line 2: unreadable CSV near line 2: String value length
      CSV_QUOTED_LINE            | file refused at line 2: unreadable CSV near line 2: String value length
      JSON_LINES_LINE            | row at line 1 refused: the line is longer than 262144 characters
      """)
  void a_huge_file_is_refused_with_its_line_and_limit_without_holding_it(
      String scenario, String refusal) throws Exception {
    ChildJvm.Exit exit = ChildJvm.run(
        HostileInputProbe.class, SMALL_HEAP, List.of(scenario), Map.of(), Duration.ofSeconds(120));

    System.out.printf(
        "%s: %s in %d ms%n", scenario, exit.output().strip(), exit.took().toMillis());
    assertThat(exit.status()).as(exit.output()).isZero();
    assertThat(exit.output()).contains(refusal);
  }
}
