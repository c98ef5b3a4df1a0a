package dev.tidings.message;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/** Unsigned LEB128 varints and raw bytes: the compact encoding inside message ids and tokens. */
final class TokenBytes {
  private TokenBytes() {}

  static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(48);

    void varint(long value) {
      if (value < 0) throw new IllegalArgumentException("varints are unsigned: " + value);
      long rest = value;
      while (rest >= 0x80) {
        out.write((int) (rest & 0x7f) | 0x80);
        rest >>>= 7;
      }
      out.write((int) rest);
    }

    void bytes(byte[] bytes) {
      out.writeBytes(bytes);
    }

    void oneByte(int value) {
      out.write(value);
    }

    byte[] toByteArray() {
      return out.toByteArray();
    }
  }

  /** Every read throws IllegalArgumentException past the end or on a malformed varint. */
  static final class Reader {
    private final byte[] in;
    private int position;

    Reader(byte[] in) {
      this.in = in;
    }

    long varint() {
      long value = 0;
      for (int shift = 0; shift < 63; shift += 7) {
        int next = oneByte();
        value |= (long) (next & 0x7f) << shift;
        if ((next & 0x80) == 0) {
          // the shortest form only, so that one value has one encoding
          if (next == 0 && shift > 0) throw new IllegalArgumentException("overlong varint");
          return value;
        }
      }
      throw new IllegalArgumentException("varint too long");
    }

    int oneByte() {
      if (position >= in.length) throw new IllegalArgumentException("truncated");
      return in[position++] & 0xff;
    }

    byte[] bytes(int count) {
      if (count < 0 || position + count > in.length)
        throw new IllegalArgumentException("truncated");
      byte[] taken = Arrays.copyOfRange(in, position, position + count);
      position += count;
      return taken;
    }

    int position() {
      return position;
    }

    boolean atEnd() {
      return position == in.length;
    }
  }
}
