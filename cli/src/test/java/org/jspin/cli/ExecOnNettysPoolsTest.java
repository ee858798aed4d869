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
        ExecCommand.onNettysPools(() -> {
            served.set(FastThreadLocalThread.currentThreadWillCleanupFastThreadLocals());
            ByteBuf first = PooledByteBufAllocator.DEFAULT.directBuffer(64);
            first.release();
            ByteBuf second = PooledByteBufAllocator.DEFAULT.directBuffer(64);
            recycled.set(second == first); // the buffer object itself came back from the recycler
            second.release();
        });
        assertTrue(served.get(), "Netty counts the program's thread as one that cleans up its thread locals");
        assertTrue(recycled.get(), "so its pooled buffer objects are recycled rather than allocated per packet");
        assertFalse(FastThreadLocalThread.currentThreadWillCleanupFastThreadLocals(), "and the thread is plain again after");
    }

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
