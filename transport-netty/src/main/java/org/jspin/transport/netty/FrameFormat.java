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

    // Where each field of the header starts: the table above, once.
    static final int MAGIC_AT = 0;
    static final int VERSION_AT = 4;
    static final int KIND_AT = 5;
    static final int FLAGS_AT = 6;
    static final int SOURCE_AT = 8;
    static final int TARGET_AT = 12;
    static final int MATCH_BITS_AT = 16;
    static final int SEND_ID_AT = 24;
    static final int RECV_ID_AT = 32;
    static final int OFFSET_AT = 40;
    static final int MESSAGE_LENGTH_AT = 48;
    static final int SIGNATURE_HASH_AT = 56;
    static final int SIGNATURE_ELEMENTS_AT = 64;
    static final int PAYLOAD_LENGTH_AT = 72;
    static final int HEADER_BYTES = 76;

    private FrameFormat() {
    }

    /** @return the wire code of {@code kind}: fixed here, whatever order the enum's constants take */
    static byte code(PacketKind kind) {
        return switch (kind) {
            case EAGER -> 0;
            case RTS -> 1;
            case CTS -> 2;
            case DATA -> 3;
            case CREDIT -> 4;
        };
    }

    /** @return the kind with wire code {@code code}, or null if there is none */
    static PacketKind kind(int code) {
        return switch (code) {
            case 0 -> PacketKind.EAGER;
            case 1 -> PacketKind.RTS;
            case 2 -> PacketKind.CTS;
            case 3 -> PacketKind.DATA;
            case 4 -> PacketKind.CREDIT;
            default -> null;
        };
    }
}
