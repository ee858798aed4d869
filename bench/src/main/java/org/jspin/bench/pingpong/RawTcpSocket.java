package org.jspin.bench.pingpong;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A TCP socket on 127.0.0.1 driven through the C library's calls, as a C program drives one: the
 * floor's socket ({@link SocketFloor}). Java's socket channels cannot choose a connection's
 * congestion control ({@code TCP_CONGESTION}), and jspin's Netty fabric runs {@code reno} between
 * two ranks of one host whatever the kernel's default; a floor on {@code bbr} (this project's
 * machines' default) moved 4 MiB messages far slower than the same connection on {@code reno}
 * (docs/PERFORMANCE.md), so a floor on Java's channels was no floor for messages over 1 MiB.
 *
 * <p>An accepted or connected socket is non-blocking: {@link #read} and {@link #write} return 0
 * where the kernel has nothing to give or no room, and the caller spins, as the floor busy-polls.
 * One thread uses a socket at a time. Linux only (the socket constants are Linux's).
 */
public final class RawTcpSocket implements AutoCloseable {
    private static final int AF_INET = 2;
    private static final int SOCK_STREAM = 1;
    private static final int SOL_SOCKET = 1;
    private static final int SO_REUSEADDR = 2;
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_NODELAY = 1;
    private static final int TCP_CONGESTION = 13;
    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    private static final int O_NONBLOCK = 0x800;
    private static final int EAGAIN = 11;
    private static final int EINTR = 4;
    private static final int LOOPBACK = 0x7f000001;
    /** {@code struct sockaddr_in}: family, port and address in network order, 8 bytes of zeros. */
    private static final long SOCKADDR_IN_BYTES = 16;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfShort NETWORK_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(
            ByteOrder.BIG_ENDIAN);
    private static final MethodHandle SOCKET = errnoCall("socket", FunctionDescriptor.of(INT, INT, INT, INT));
    private static final MethodHandle SETSOCKOPT = errnoCall("setsockopt",
            FunctionDescriptor.of(INT, INT, INT, INT, ValueLayout.ADDRESS, INT));
    private static final MethodHandle BIND = errnoCall("bind", FunctionDescriptor.of(INT, INT, ValueLayout.ADDRESS, INT));
    private static final MethodHandle LISTEN = errnoCall("listen", FunctionDescriptor.of(INT, INT, INT));
    private static final MethodHandle ACCEPT = errnoCall("accept",
            FunctionDescriptor.of(INT, INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    private static final MethodHandle CONNECT = errnoCall("connect",
            FunctionDescriptor.of(INT, INT, ValueLayout.ADDRESS, INT));
    private static final MethodHandle GETSOCKNAME = errnoCall("getsockname",
            FunctionDescriptor.of(INT, INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    private static final MethodHandle FCNTL = errnoCall("fcntl", FunctionDescriptor.of(INT, INT, INT, INT),
            Linker.Option.firstVariadicArg(2));
    // read and write take the buffer's address as a number: a slice per call would be an allocation per message
    private static final MethodHandle READ = errnoCall("read", FunctionDescriptor.of(LONG, INT, LONG, LONG));
    private static final MethodHandle WRITE = errnoCall("write", FunctionDescriptor.of(LONG, INT, LONG, LONG));
    private static final MethodHandle CLOSE = errnoCall("close", FunctionDescriptor.of(INT, INT));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(
            LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, INT));

    private final int fd;
    /** Where each call leaves its {@code errno}; the socket's own, since one thread uses it at a time. */
    private final MemorySegment callState = Arena.ofAuto().allocate(CALL_STATE);
    private boolean closed;

    private RawTcpSocket(int fd) {
        this.fd = fd;
    }

    /**
     * @return a socket listening on 127.0.0.1 at a port the kernel chose ({@link #port()}); its
     *         {@link #accept()} blocks
     * @throws IOException naming the call that failed and why
     */
    public static RawTcpSocket listenLoopback() throws IOException {
        RawTcpSocket s = open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment one = arena.allocateFrom(INT, 1);
            MemorySegment address = loopback(arena, 0);
            s.call("setsockopt(SO_REUSEADDR)", () -> (int) SETSOCKOPT.invokeExact(s.callState, s.fd, SOL_SOCKET,
                    SO_REUSEADDR, one, 4));
            s.call("bind(127.0.0.1:0)", () -> (int) BIND.invokeExact(s.callState, s.fd, address,
                    (int) SOCKADDR_IN_BYTES));
            s.call("listen", () -> (int) LISTEN.invokeExact(s.callState, s.fd, 1));
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * @param port a port on 127.0.0.1 that a {@link #listenLoopback()} socket listens at
     * @return a connected, non-blocking socket
     * @throws IOException naming the call that failed and why
     */
    public static RawTcpSocket connectLoopback(int port) throws IOException {
        if (port <= 0 || port > 0xffff) {
            throw new IllegalArgumentException("a TCP port is 1-65535, got " + port);
        }
        RawTcpSocket s = open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment address = loopback(arena, port);
            s.call("connect(127.0.0.1:" + port + ")", () -> (int) CONNECT.invokeExact(s.callState, s.fd, address,
                    (int) SOCKADDR_IN_BYTES));
            s.nonBlocking();
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** @return the port a listening socket is bound to */
    public int port() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment address = arena.allocate(SOCKADDR_IN_BYTES);
            MemorySegment length = arena.allocateFrom(INT, (int) SOCKADDR_IN_BYTES);
            call("getsockname", () -> (int) GETSOCKNAME.invokeExact(callState, fd, address, length));
            return Short.toUnsignedInt(address.get(NETWORK_SHORT, 2));
        }
    }

    /** @return the next connection to this listening socket, non-blocking; waits for one */
    public RawTcpSocket accept() throws IOException {
        RawTcpSocket s = new RawTcpSocket(call("accept", () -> (int) ACCEPT.invokeExact(callState, fd,
                MemorySegment.NULL, MemorySegment.NULL)));
        try {
            s.nonBlocking();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /** Sets {@code TCP_NODELAY}: a small message leaves at once, as the fabric's connections do. */
    public void noDelay() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment one = arena.allocateFrom(INT, 1);
            call("setsockopt(TCP_NODELAY)", () -> (int) SETSOCKOPT.invokeExact(callState, fd, IPPROTO_TCP,
                    TCP_NODELAY, one, 4));
        }
    }

    /**
     * @param name a TCP congestion control the kernel has ({@code reno}, {@code cubic}, ...)
     * @throws IOException naming the algorithm if the kernel refuses it
     */
    public void congestionControl(String name) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
            MemorySegment value = arena.allocate(Math.max(1, bytes.length));
            MemorySegment.copy(bytes, 0, value, ValueLayout.JAVA_BYTE, 0, bytes.length);
            call("setsockopt(TCP_CONGESTION, '" + name + "')", () -> (int) SETSOCKOPT.invokeExact(callState, fd,
                    IPPROTO_TCP, TCP_CONGESTION, value, bytes.length));
        }
    }

    /**
     * @param from   a native segment, open for the call
     * @param offset where in it the bytes to write start
     * @param length how many to write at most
     * @return how many the kernel took, 0 if the socket's buffer is full
     * @throws IOException if the connection failed
     */
    public long write(MemorySegment from, long offset, long length) throws IOException {
        long n = transfer(WRITE, from, offset, length);
        return n >= 0 ? n : again("write");
    }

    /**
     * @param into   a native segment, open for the call
     * @param offset where in it the bytes go
     * @param length how many to read at most (more than 0)
     * @return how many arrived, 0 if none are there yet
     * @throws EOFException if the peer closed the connection
     * @throws IOException  if the connection failed
     */
    public long read(MemorySegment into, long offset, long length) throws IOException {
        long n = transfer(READ, into, offset, length);
        if (n == 0 && length > 0) {
            throw new EOFException("the peer closed the connection");
        }
        return n >= 0 ? n : again("read");
    }

    /** {@code read} or {@code write} on bytes [offset, offset + length) of {@code segment}: the C call's result. */
    private long transfer(MethodHandle call, MemorySegment segment, long offset, long length) {
        long address = address(segment, offset, length);
        try {
            return (long) call.invokeExact(callState, fd, address, length);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) { // the C functions throw nothing; invokeExact declares Throwable
            throw new IllegalStateException(t);
        }
    }

    /** The address of bytes [offset, offset + length) of a native segment, checked against its bounds. */
    private static long address(MemorySegment segment, long offset, long length) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("a socket reads and writes native memory, not " + segment);
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the segment's arena is closed: " + segment);
        }
        Objects.checkFromIndexSize(offset, length, segment.byteSize());
        return segment.address() + offset;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            invoke("close", () -> (int) CLOSE.invokeExact(callState, fd));
        }
    }

    private static RawTcpSocket open() throws IOException {
        MemorySegment state = Arena.ofAuto().allocate(CALL_STATE);
        int fd = invoke("socket", () -> (int) SOCKET.invokeExact(state, AF_INET, SOCK_STREAM, 0));
        if (fd < 0) {
            throw new IOException("socket: " + describe((int) ERRNO.get(state, 0L)));
        }
        return new RawTcpSocket(fd);
    }

    private void nonBlocking() throws IOException {
        int flags = call("fcntl(F_GETFL)", () -> (int) FCNTL.invokeExact(callState, fd, F_GETFL, 0));
        call("fcntl(F_SETFL)", () -> (int) FCNTL.invokeExact(callState, fd, F_SETFL, flags | O_NONBLOCK));
    }

    /** A failed read or write: 0 if it would have blocked or was interrupted, else the error. */
    private long again(String call) throws IOException {
        int errno = (int) ERRNO.get(callState, 0L);
        if (errno == EAGAIN || errno == EINTR) {
            return 0;
        }
        throw new IOException(call + ": " + describe(errno));
    }

    /** A set-up call: its result, or an IOException naming it and the C library's reason. */
    private int call(String what, IntCall c) throws IOException {
        int result = invoke(what, c);
        if (result < 0) {
            throw new IOException(what + ": " + describe((int) ERRNO.get(callState, 0L)));
        }
        return result;
    }

    private static int invoke(String what, IntCall c) {
        try {
            return c.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) { // the C functions throw nothing; invokeExact declares Throwable
            throw new IllegalStateException(what, t);
        }
    }

    /** A downcall returning an int, as {@code invokeExact} declares it. */
    @FunctionalInterface
    private interface IntCall {
        int call() throws Throwable;
    }

    private static String describe(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(256).getString(0) + " (errno " + errno + ")";
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static MemorySegment loopback(Arena arena, int port) {
        MemorySegment a = arena.allocate(SOCKADDR_IN_BYTES);
        a.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) AF_INET);
        a.set(NETWORK_SHORT, 2, (short) port);
        a.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 4, LOOPBACK);
        return a;
    }

    private static MethodHandle errnoCall(String name, FunctionDescriptor descriptor, Linker.Option... more) {
        Linker.Option[] options = new Linker.Option[more.length + 1];
        options[0] = Linker.Option.captureCallState("errno");
        System.arraycopy(more, 0, options, 1, more.length);
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, options);
    }
}
