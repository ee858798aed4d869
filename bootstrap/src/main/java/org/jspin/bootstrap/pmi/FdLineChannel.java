package org.jspin.bootstrap.pmi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.SocketTimeoutException;

/**
 * PMI-1 lines over an inherited, already-connected descriptor (Hydra's {@code PMI_FD}), driven by
 * libc's {@code poll}, {@code read}, {@code write} and {@code close} through {@code java.lang.foreign}:
 * Java has no way to adopt a descriptor it did not open. Interrupted calls are retried, short reads and
 * writes continued, and every wait goes through {@code poll} with the time left, so nothing blocks past
 * its deadline.
 */
final class FdLineChannel extends BufferedLineChannel {
    private static final short POLLIN = 0x001;
    private static final short POLLOUT = 0x004;
    private static final short POLLNVAL = 0x020;
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;

    private final int fd;
    private boolean closed;

    /**
     * @param fd an open, connected descriptor, owned from now on
     * @throws IOException when libc cannot be reached through {@code java.lang.foreign}
     */
    FdLineChannel(int fd) throws IOException {
        Libc.require();
        this.fd = fd;
    }

    @Override
    public String describe() {
        return "PMI_FD=" + fd;
    }

    @Override
    protected int fill(byte[] into, int off, int len, long deadlineNanos) throws IOException {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Libc.STATE);
            MemorySegment pollFd = arena.allocate(8, 4);
            MemorySegment mem = arena.allocate(len);
            while (true) {
                await(POLLIN, deadlineNanos, state, pollFd, "waiting for a line from " + describe());
                long n = Libc.read(state, fd, mem, len);
                if (n > 0) {
                    MemorySegment.copy(mem, JAVA_BYTE, 0, into, off, (int) n);
                    return (int) n;
                }
                if (n == 0) {
                    return -1;
                }
                int errno = Libc.errno(state);
                if (errno != EINTR && errno != EAGAIN) {
                    throw Libc.failure("read", describe(), errno);
                }
            }
        }
    }

    @Override
    protected void writeFully(byte[] bytes, long deadlineNanos) throws IOException {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Libc.STATE);
            MemorySegment pollFd = arena.allocate(8, 4);
            MemorySegment mem = arena.allocate(bytes.length);
            MemorySegment.copy(bytes, 0, mem, JAVA_BYTE, 0, bytes.length);
            long done = 0;
            while (done < bytes.length) {
                long n = Libc.write(state, fd, mem.asSlice(done), bytes.length - done);
                if (n > 0) {
                    done += n;
                    continue;
                }
                int errno = n == 0 ? EAGAIN : Libc.errno(state);
                if (errno == EAGAIN) {
                    await(POLLOUT, deadlineNanos, state, pollFd, "writing to " + describe());
                } else if (errno != EINTR) {
                    throw Libc.failure("write", describe(), errno);
                }
            }
        }
    }

    /** Waits with {@code poll} until the descriptor is ready for {@code events} or has failed. */
    private void await(short events, long deadlineNanos, MemorySegment state, MemorySegment pollFd, String what)
            throws IOException {
        while (true) {
            int millis = millisLeft(deadlineNanos, what);
            pollFd.set(JAVA_INT, 0, fd);
            pollFd.set(JAVA_SHORT, 4, events);
            pollFd.set(JAVA_SHORT, 6, (short) 0);
            int ready = Libc.poll(state, pollFd, 1, millis);
            if (ready < 0) {
                int errno = Libc.errno(state);
                if (errno != EINTR) {
                    throw Libc.failure("poll", describe(), errno);
                }
            } else if (ready > 0) {
                if ((pollFd.get(JAVA_SHORT, 6) & POLLNVAL) != 0) {
                    throw new IOException(describe() + " is not an open file descriptor (poll said POLLNVAL)");
                }
                // ready, or hung up / failed: the read or write that follows reports which
                return;
            }
            // ready == 0: the time ran out (or poll woke early); millisLeft decides
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(describe() + " is already closed");
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Libc.STATE);
            // not retried on EINTR: on Linux the descriptor is released either way
            if (Libc.close(state, fd) < 0 && Libc.errno(state) != EINTR) {
                throw Libc.failure("close", describe(), Libc.errno(state));
            }
        }
    }

    /**
     * The libc entry points, bound on first use (so the socket transport never touches native access).
     * Restricted methods are the point here; the JVM needs {@code --enable-native-access=ALL-UNNAMED}.
     */
    @SuppressWarnings("restricted")
    static final class Libc {
        static final StructLayout STATE = Linker.Option.captureStateLayout();
        private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        private static final MethodHandle READ;
        private static final MethodHandle WRITE;
        private static final MethodHandle POLL;
        private static final MethodHandle CLOSE;
        private static final MethodHandle STRERROR;
        private static final Throwable UNAVAILABLE;

        static {
            MethodHandle read = null;
            MethodHandle write = null;
            MethodHandle poll = null;
            MethodHandle close = null;
            MethodHandle strerror = null;
            Throwable unavailable = null;
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                read = linker.downcallHandle(libc.find("read").orElseThrow(),
                        FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
                write = linker.downcallHandle(libc.find("write").orElseThrow(),
                        FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
                poll = linker.downcallHandle(libc.find("poll").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), errno);
                close = linker.downcallHandle(libc.find("close").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno);
                strerror = linker.downcallHandle(libc.find("strerror").orElseThrow(),
                        FunctionDescriptor.of(ADDRESS, JAVA_INT));
            } catch (RuntimeException | Error e) {
                unavailable = e;
            }
            READ = read;
            WRITE = write;
            POLL = poll;
            CLOSE = close;
            STRERROR = strerror;
            UNAVAILABLE = unavailable;
        }

        private Libc() {
        }

        static void require() throws IOException {
            if (UNAVAILABLE != null) {
                throw new IOException("cannot call libc through java.lang.foreign (" + UNAVAILABLE
                        + "); run the JVM with --enable-native-access=ALL-UNNAMED", UNAVAILABLE);
            }
        }

        static int errno(MemorySegment state) {
            return (int) ERRNO.get(state, 0L);
        }

        static long read(MemorySegment state, int fd, MemorySegment buf, long count) {
            try {
                return (long) READ.invokeExact(state, fd, buf, count);
            } catch (Throwable t) {
                throw unexpected(t);
            }
        }

        static long write(MemorySegment state, int fd, MemorySegment buf, long count) {
            try {
                return (long) WRITE.invokeExact(state, fd, buf, count);
            } catch (Throwable t) {
                throw unexpected(t);
            }
        }

        static int poll(MemorySegment state, MemorySegment fds, long nfds, int timeoutMillis) {
            try {
                return (int) POLL.invokeExact(state, fds, nfds, timeoutMillis);
            } catch (Throwable t) {
                throw unexpected(t);
            }
        }

        static int close(MemorySegment state, int fd) {
            try {
                return (int) CLOSE.invokeExact(state, fd);
            } catch (Throwable t) {
                throw unexpected(t);
            }
        }

        /** @return an IOException saying which call on which descriptor failed, with libc's words for errno */
        static IOException failure(String call, String where, int errno) {
            String text;
            try {
                MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
                text = s.equals(MemorySegment.NULL) ? "unknown error" : s.reinterpret(4096).getString(0);
            } catch (Throwable t) {
                text = "strerror failed: " + t;
            }
            return new IOException(call + " on " + where + " failed: " + text + " (errno " + errno + ")");
        }

        private static RuntimeException unexpected(Throwable t) {
            if (t instanceof RuntimeException r) {
                return r;
            }
            if (t instanceof Error e) {
                throw e;
            }
            return new IllegalStateException("a libc downcall threw " + t, t);
        }
    }
}
