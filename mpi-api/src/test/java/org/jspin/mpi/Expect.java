package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.function.Executable;

/** Assertions the bad-input, request and failure tests share. */
final class Expect {
    /** A byte no transfer in these tests writes: a buffer filled with it shows whether anything landed. */
    static final byte PATTERN = (byte) 0x5A;

    private Expect() {
    }

    /**
     * Asserts that {@code call} throws an {@link MpiException} of class {@code errorClass} whose
     * message contains every one of {@code mentions} (the offending value, say).
     */
    static MpiException error(ErrorClass errorClass, Executable call, String... mentions) {
        MpiException e = assertThrows(MpiException.class, call);
        assertEquals(errorClass, e.errorClass(), () -> "wrong error class for: " + e.getMessage());
        for (String m : mentions) {
            assertTrue(e.getMessage().contains(m), () -> "message should name '" + m + "': " + e.getMessage());
        }
        return e;
    }

    /** Waits for {@code r} at most {@code seconds}, failing (not hanging) if it does not end. */
    static Status within(Request r, long seconds, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!r.isDone()) {
            if (System.nanoTime() > deadline) {
                r.cancel();
                fail(what + " did not complete within " + seconds + " s");
            }
            Thread.onSpinWait();
            Thread.yield();
        }
        Status s = r.waitFor();
        assertNotNull(s);
        return s;
    }

    /** @return a heap segment of {@code bytes} bytes, every byte {@link #PATTERN} */
    static MemorySegment patterned(int bytes) {
        MemorySegment s = MemorySegment.ofArray(new byte[bytes]);
        s.fill(PATTERN);
        return s;
    }

    /** Asserts that every byte of {@code s} still holds {@link #PATTERN}. */
    static void untouched(MemorySegment s, String what) {
        for (long i = 0; i < s.byteSize(); i++) {
            byte b = s.get(ValueLayout.JAVA_BYTE, i);
            if (b != PATTERN) {
                fail(what + ": byte " + i + " of " + s.byteSize() + " was written (" + b + ")");
            }
        }
    }
}
