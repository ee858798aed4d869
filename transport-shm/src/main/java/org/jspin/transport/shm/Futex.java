package org.jspin.transport.shm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Linux futexes on a 32-bit word of memory that several processes map: a thread waits until the
 * word no longer holds the value it saw, and another process's thread wakes it. Shared (not
 * private) futexes, since the waker is another process. Through the C library's {@code syscall},
 * every argument passed as a 64-bit integer, as its variadic arguments are read.
 */
final class Futex {
    private static final long SYS_FUTEX = 202; // x86-64
    private static final long FUTEX_WAIT = 0;
    private static final long FUTEX_WAKE = 1;

    private static final MethodHandle SYSCALL4;
    private static final MethodHandle SYSCALL5;

    static {
        Linker linker = Linker.nativeLinker();
        MemorySegment syscall = linker.defaultLookup().find("syscall").orElseThrow(
                () -> new MpiException(ErrorClass.ERR_OTHER, "the C library has no syscall(): the shm fabric needs Linux"));
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
        SYSCALL4 = linker.downcallHandle(syscall, FunctionDescriptor.of(l, l, l, l, l), Linker.Option.firstVariadicArg(1));
        SYSCALL5 = linker.downcallHandle(syscall, FunctionDescriptor.of(l, l, l, l, l, l),
                Linker.Option.firstVariadicArg(1));
    }

    private Futex() {
    }

    /** @return whether futexes work here (Linux on x86-64) */
    static boolean supported() {
        return "Linux".equals(System.getProperty("os.name")) && "amd64".equals(System.getProperty("os.arch"));
    }

    /**
     * Waits while the word at {@code address} holds {@code expected}, at most as long as the
     * {@code timespec} (a relative {@code struct timespec}) says; returns early on a wake-up, a
     * signal, or a word that already changed. Callers re-check their condition either way.
     */
    static void await(long address, int expected, MemorySegment timespec) {
        try {
            long ignored = (long) SYSCALL5.invokeExact(SYS_FUTEX, address, FUTEX_WAIT, (long) expected, timespec.address());
        } catch (Throwable t) {
            throw new MpiException(ErrorClass.ERR_OTHER, "futex wait failed: " + t, t);
        }
    }

    /** Wakes every thread waiting on the word at {@code address}. */
    static void wakeAll(long address) {
        try {
            long ignored = (long) SYSCALL4.invokeExact(SYS_FUTEX, address, FUTEX_WAKE, (long) Integer.MAX_VALUE);
        } catch (Throwable t) {
            throw new MpiException(ErrorClass.ERR_OTHER, "futex wake failed: " + t, t);
        }
    }
}
