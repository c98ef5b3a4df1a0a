package dev.tidings.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import tools.jackson.databind.JsonNode;

/**
 * A small, seeded mutator over a corpus of seeds: byte-level changes (bit flips, odd bytes, tokens from a
 * dictionary, deleted, repeated and spliced ranges) and, for seeds that are JSON documents or JSON lines,
 * structure-aware ones ({@link JsonMutations}). It gives every build a bounded, repeatable slice of
 * fuzzing without a coverage-guided engine; {@code -Pfuzz} runs Jazzer itself.
 */
public final class SeedMutator {
  private static final List<byte[]> TOKENS = List.of(
      bytes("\u0000"),
      bytes("\r\n"),
      bytes("\n"),
      bytes("\""),
      bytes("\"\""),
      bytes(","),
      bytes(",,,,"),
      bytes("\\"),
      bytes("\\u0000"),
      bytes("\\ud800"),
      bytes("{"),
      bytes("}"),
      bytes("["),
      bytes("]"),
      bytes("null"),
      bytes("1e400"),
      bytes("-0"),
      bytes("9223372036854775808"),
      bytes("{{"),
      bytes("}}"),
      bytes("{{#"),
      bytes("{{/"),
      bytes("@"),
      bytes("%00"),
      bytes("😀"),
      new byte[] {(byte) 0xC0, (byte) 0x80},
      new byte[] {(byte) 0xFF, (byte) 0xFE},
      new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
      new byte[] {(byte) 0x1F, (byte) 0x8B, 8, 0, 0, 0, 0, 0},
      new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80});

  private static final byte[] ODD_BYTES = {
    0, 1, 0x1f, 0x7f, (byte) 0x80, (byte) 0xff, '"', ',', '\n', '\r', '{', '\\'
  };

  private final List<byte[]> seeds;
  private final Random random;

  public SeedMutator(List<byte[]> seeds, long seed) {
    this.seeds = seeds.isEmpty() ? List.of(new byte[0]) : List.copyOf(seeds);
    this.random = new Random(seed);
  }

  public byte[] next() {
    byte[] seed = seeds.get(random.nextInt(seeds.size()));
    if (random.nextInt(3) == 0) {
      Optional<byte[]> structured = structured(seed);
      if (structured.isPresent()) return structured.get();
    }
    byte[] data = seed;
    int changes = 1 + random.nextInt(4);
    for (int i = 0; i < changes; i++) data = mutateBytes(data);
    return data;
  }

  /** A JSON seed (a document, or one line of JSON Lines) changed in its structure. */
  private Optional<byte[]> structured(byte[] seed) {
    String text = new String(seed, UTF_8);
    String[] lines = text.split("\n", -1);
    int pick = random.nextInt(lines.length);
    boolean whole = lines.length <= 2 || random.nextBoolean();
    String target = whole ? text : lines[pick];
    JsonNode node = Inputs.json(target.getBytes(UTF_8)).orElse(null);
    if (node == null || !(node.isObject() || node.isArray())) return Optional.empty();
    String mutated = JsonMutations.write(JsonMutations.mutate(node, random));
    if (whole) return Optional.of(mutated.getBytes(UTF_8));
    lines[pick] = mutated;
    return Optional.of(String.join("\n", lines).getBytes(UTF_8));
  }

  private byte[] mutateBytes(byte[] data) {
    int n = data.length;
    switch (random.nextInt(8)) {
      case 0 -> {
        if (n == 0) return insert(data, 0, token());
        byte[] out = data.clone();
        out[random.nextInt(n)] ^= (byte) (1 << random.nextInt(8));
        return out;
      }
      case 1 -> {
        if (n == 0) return insert(data, 0, token());
        byte[] out = data.clone();
        out[random.nextInt(n)] = ODD_BYTES[random.nextInt(ODD_BYTES.length)];
        return out;
      }
      case 2, 3 -> {
        return insert(data, random.nextInt(n + 1), token());
      }
      case 4 -> {
        if (n == 0) return data;
        int from = random.nextInt(n);
        int to = from + random.nextInt(Math.min(n - from, 64) + 1);
        return concat(slice(data, 0, from), slice(data, to, n));
      }
      case 5 -> {
        if (n == 0) return data;
        int from = random.nextInt(n);
        int to = from + 1 + random.nextInt(Math.min(n - from, 64));
        byte[] piece = slice(data, from, to);
        int times = random.nextInt(8) == 0 ? 2_000 : 1 + random.nextInt(4);
        var out = new ByteArrayOutputStream();
        out.writeBytes(slice(data, 0, to));
        for (int i = 0; i < times; i++) out.writeBytes(piece);
        out.writeBytes(slice(data, to, n));
        return out.toByteArray();
      }
      case 6 -> {
        byte[] other = seeds.get(random.nextInt(seeds.size()));
        int cut = random.nextInt(n + 1);
        int otherCut = random.nextInt(other.length + 1);
        return concat(slice(data, 0, cut), slice(other, otherCut, other.length));
      }
      default -> {
        return slice(data, 0, n == 0 ? 0 : random.nextInt(n));
      }
    }
  }

  private byte[] token() {
    if (random.nextInt(10) == 0) return bytes(JsonMutations.oddString(random));
    return TOKENS.get(random.nextInt(TOKENS.size()));
  }

  private static byte[] insert(byte[] data, int at, byte[] piece) {
    return concat(concat(slice(data, 0, at), piece), slice(data, at, data.length));
  }

  static byte[] slice(byte[] data, int from, int to) {
    return Arrays.copyOfRange(data, from, to);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }
}
