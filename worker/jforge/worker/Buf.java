package jforge.worker;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable big-endian byte buffer used both to encode frames and to decode them. */
final class Buf {
    byte[] b;
    int n;
    int pos;

    Buf(int cap) {
        b = new byte[cap];
    }

    void reset() {
        n = 0;
        pos = 0;
    }

    void ensure(int k) {
        if (n + k > b.length) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, n + k));
        }
    }

    void u8(int v) {
        ensure(1);
        b[n++] = (byte) v;
    }

    void u16(int v) {
        ensure(2);
        b[n++] = (byte) (v >>> 8);
        b[n++] = (byte) v;
    }

    void i32(int v) {
        ensure(4);
        b[n++] = (byte) (v >>> 24);
        b[n++] = (byte) (v >>> 16);
        b[n++] = (byte) (v >>> 8);
        b[n++] = (byte) v;
    }

    void i64(long v) {
        i32((int) (v >>> 32));
        i32((int) v);
    }

    void bytes(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, b, n, len);
        n += len;
    }

    void str(String s) {
        byte[] u = s.getBytes(StandardCharsets.UTF_8);
        i32(u.length);
        bytes(u, 0, u.length);
    }

    void need(int k) {
        if (pos + k > n || k < 0) {
            throw new IllegalStateException("truncated frame");
        }
    }

    int ru8() {
        need(1);
        return b[pos++] & 0xff;
    }

    int ru16() {
        need(2);
        int v = ((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    int ri32() {
        need(4);
        int v = ((b[pos] & 0xff) << 24) | ((b[pos + 1] & 0xff) << 16) | ((b[pos + 2] & 0xff) << 8)
                | (b[pos + 3] & 0xff);
        pos += 4;
        return v;
    }

    long ri64() {
        long hi = ri32() & 0xffffffffL;
        long lo = ri32() & 0xffffffffL;
        return (hi << 32) | lo;
    }

    String rstr() {
        int len = ri32();
        need(len);
        String s = new String(b, pos, len, StandardCharsets.UTF_8);
        pos += len;
        return s;
    }
}
