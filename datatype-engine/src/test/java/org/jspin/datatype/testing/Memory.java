package org.jspin.datatype.testing;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Where the typed and the packed buffers of a property test live. The copy kernels take different
 * paths for heap and native segments (and for a heap segment that does not start at its array's
 * first byte), so every data-movement property runs on each.
 */
public enum Memory {
    /** Both buffers on the heap: {@code MemorySegment.ofArray(byte[])}. */
    HEAP,
    /** Both buffers native, from a confined arena. */
    NATIVE,
    /** Typed buffer native, packed buffer a heap slice starting at byte 3 of its array. */
    MIXED;

    /** @return a typed buffer holding a copy of {@code content} */
    public MemorySegment typed(Arena arena, byte[] content) {
        MemorySegment s = this == HEAP ? MemorySegment.ofArray(new byte[content.length])
                : arena.allocate(Math.max(1, content.length), 1).asSlice(0, content.length);
        MemorySegment.copy(MemorySegment.ofArray(content), 0, s, 0, content.length);
        return s;
    }

    /** @return a packed buffer holding a copy of {@code content} */
    public MemorySegment packed(Arena arena, byte[] content) {
        MemorySegment s = switch (this) {
            case HEAP -> MemorySegment.ofArray(new byte[content.length]);
            case NATIVE -> arena.allocate(Math.max(1, content.length), 1).asSlice(0, content.length);
            case MIXED -> MemorySegment.ofArray(new byte[content.length + 7]).asSlice(3, content.length);
        };
        MemorySegment.copy(MemorySegment.ofArray(content), 0, s, 0, content.length);
        return s;
    }

    /** @return a packed buffer of {@code size} zero bytes */
    public MemorySegment packed(Arena arena, long size) {
        return packed(arena, new byte[Math.toIntExact(size)]);
    }

    /** @return the bytes of a segment, copied out */
    public static byte[] bytes(MemorySegment s) {
        return s.toArray(JAVA_BYTE);
    }
}
