package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocalThread;
import org.junit.jupiter.api.Test;

/** The program {@code jspin exec} runs is, for Netty's pools, a thread they serve, and its failures pass through unchanged. */
class ExecOnNettysPoolsTest {
    @Test
    void theProgramRunsAsAThreadNettysPoolsServe() throws Throwable {
        assertFalse(FastThreadLocalThread.currentThreadWillCleanupFastThreadLocals(), "a plain test thread before");
        AtomicBoolean served = new AtomicBoolean();
        AtomicBoolean recycled = new AtomicBoolean();
        assertFalse(recycles(), "a plain thread gets a new buffer object every time");
        ExecCommand.onNettysPools(() -> {
            served.set(FastThreadLocalThread.currentThreadWillCleanupFastThreadLocals());
            recycled.set(recycles());
        });
        assertTrue(served.get(), "Netty counts the program's thread as one that cleans up its thread locals");
        assertTrue(recycled.get(), "so its pooled buffer objects are recycled rather than allocated per packet");
        assertFalse(FastThreadLocalThread.currentThreadWillCleanupFastThreadLocals(), "and the thread is plain again after");
    }

    /**
     * Whether a released buffer object comes back from the recycler to the next allocation within
     * {@value #TRIES} tries: the recycler keeps only one in several new objects (its ratio), so a
     * single try depends on what this thread allocated before (a fresh clone's run once saw it fail).
     */
    private static boolean recycles() {
        for (int i = 0; i < TRIES; i++) {
            ByteBuf first = PooledByteBufAllocator.DEFAULT.directBuffer(64);
            first.release();
            ByteBuf second = PooledByteBufAllocator.DEFAULT.directBuffer(64);
            second.release();
            if (second == first) {
                return true;
            }
        }
        return false;
    }

    private static final int TRIES = 64;

    @Test
    void whatTheProgramThrowsComesOutAsItWas() {
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> ExecCommand.onNettysPools(() -> {
            throw boom;
        })));
        StackOverflowError error = new StackOverflowError("deep");
        assertSame(error, assertThrows(StackOverflowError.class, () -> ExecCommand.onNettysPools(() -> {
            throw error;
        })));
    }
}
