package org.jspin.transport.netty;

import org.jspin.nic.fabric.PacketKind;

/**
 * The wire format of one packet, version 1: a fixed 76-byte header, big-endian, then the payload.
 *
 * <pre>
 *  0 magic "JSPN"      4 version (1 byte)   5 kind (1 byte)   6 flags (2 bytes, zero)
 *  8 source (int)     12 target (int)      16 match bits      24 send id       32 recv id
 * 40 offset           48 message length    56 signature hash  64 signature elements
 * 72 payload length (int)                  76 payload ...
 * </pre>
 *
 * Every length is checked against a maximum before anything is allocated for it.
 */
final class FrameFormat {
    static final int MAGIC = 0x4A53504E; // "JSPN"
    static final byte VERSION = 1;
    static final int HEADER_BYTES = 76;
    static final int PAYLOAD_LENGTH_AT = 72;

    private static final PacketKind[] KINDS = PacketKind.values();

    private FrameFormat() {
    }

    static byte code(PacketKind kind) {
        return (byte) kind.ordinal();
    }

    /** @return the kind with wire code {@code code}, or null if there is none */
    static PacketKind kind(int code) {
        return code >= 0 && code < KINDS.length ? KINDS[code] : null;
    }
}
