package org.jspin.transport.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * One rank's inbox in shared memory: a file of {@code /dev/shm} (mode 0600, a name nobody can
 * guess) holding an Agrona many-to-one ring buffer that every peer writes into, and after it a
 * control block: the futex word that wakes the owner, whether it sleeps, whether it has left,
 * its process id, and one flag per producer waiting for space. The owner creates it; peers map
 * it by the path the job's endpoint exchange gave them, checking that it is what the owner made.
 */
final class RingFile implements AutoCloseable {
    /** Every ring file's name starts so; the rest says which process made it (see {@link StaleRings}). */
    static final String PREFIX = "jspin-shm-";
    /** "jspinshm" in ASCII: what the owner writes once the file is ready, checked by every peer. */
    static final long MAGIC = 0x6a7370696e73686dL;

    // the control block, after the ring's bytes and Agrona's trailer; each hot word on its own line
    private static final int SIGNAL = 0;
    private static final int SLEEPING = 64;
    private static final int CLOSED = 128;
    private static final int SPACE_WANTED = 192;
    private static final int PID = 256;
    private static final int RANK = 264;
    private static final int SIZE = 268;
    private static final int CAPACITY = 272;
    private static final int MAGIC_AT = 280;
    private static final int PRODUCERS = 320;

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path path;
    private final Arena arena;
    private final MemorySegment mapped;
    private final UnsafeBuffer ring;
    private final UnsafeBuffer control;
    private boolean unlinked;

    private RingFile(Path path, Arena arena, MemorySegment mapped, int capacity, int size) {
        this.path = path;
        this.arena = arena;
        this.mapped = mapped;
        long ringBytes = capacity + (long) RingBufferDescriptor.TRAILER_LENGTH;
        this.ring = new UnsafeBuffer(mapped.address(), (int) ringBytes);
        this.control = new UnsafeBuffer(mapped.address() + ringBytes, controlBytes(size));
    }

    /**
     * Creates this rank's inbox in {@code dir}: created with mode 0600 atomically, sized, mapped,
     * its control block written; the magic last, so a peer never maps a half-made file.
     *
     * @param capacity the ring's bytes, a power of two
     * @throws MpiException ERR_OTHER naming the directory when it cannot be made
     */
    static RingFile create(Path dir, int rank, int size, int capacity) {
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        Path path = dir.resolve(PREFIX + StaleRings.selfTag() + "-" + HexFormat.of().formatHex(random));
        long bytes = fileBytes(capacity, size);
        Arena arena = Arena.ofShared();
        try {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            MemorySegment m;
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ch.truncate(bytes); // a sparse file: pages appear as they are written
                ch.write(java.nio.ByteBuffer.allocate(1), bytes - 1);
                m = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
            }
            RingFile f = new RingFile(path, arena, m, capacity, size);
            f.control.putLong(PID, ProcessHandle.current().pid());
            f.control.putInt(RANK, rank);
            f.control.putInt(SIZE, size);
            f.control.putInt(CAPACITY, capacity);
            f.control.putLongVolatile(MAGIC_AT, MAGIC);
            return f;
        } catch (IOException | RuntimeException e) {
            arena.close();
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // nothing was made, or the sweep of the next start removes it
            }
            throw new MpiException(ErrorClass.ERR_OTHER, "rank " + rank + " cannot make its shared-memory ring in "
                    + dir + " (" + bytes + " bytes): " + e, e);
        }
    }

    /**
     * Maps rank {@code rank}'s inbox at {@code path}, as the endpoint exchange gave it.
     *
     * @throws MpiException ERR_OTHER naming the rank and what is wrong: not a regular file of this
     *                      user's with mode 0600, of another size, rank or job size, or not ready
     */
    static RingFile open(Path path, int rank, int size, int capacity) {
        String who = "rank " + rank + "'s shared-memory ring " + path;
        long bytes = fileBytes(capacity, size);
        Arena arena = Arena.ofShared();
        try {
            PosixFileAttributes a = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                throw new MpiException(ErrorClass.ERR_OTHER, who + " is not a regular file");
            }
            if (!a.permissions().equals(OWNER_ONLY)) {
                throw new MpiException(ErrorClass.ERR_OTHER, who + " has mode "
                        + PosixFilePermissions.toString(a.permissions()) + ", not rw-------");
            }
            Object uid = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (!uid.equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
                throw new MpiException(ErrorClass.ERR_OTHER, who + " belongs to user " + a.owner().getName()
                        + ", not to this process's");
            }
            if (a.size() != bytes) {
                throw new MpiException(ErrorClass.ERR_OTHER, who + " has " + a.size() + " bytes, not " + bytes);
            }
            MemorySegment m;
            try (FileChannel ch = FileChannel.open(path, EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE))) {
                m = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
            }
            RingFile f = new RingFile(path, arena, m, capacity, size);
            if (f.control.getLongVolatile(MAGIC_AT) != MAGIC || f.control.getInt(RANK) != rank
                    || f.control.getInt(SIZE) != size || f.control.getInt(CAPACITY) != capacity) {
                arena.close();
                throw new MpiException(ErrorClass.ERR_OTHER, who + " is not a ring of rank " + rank + " of " + size
                        + " ranks with " + capacity + " bytes");
            }
            return f;
        } catch (NoSuchFileException e) {
            arena.close();
            throw new MpiException(ErrorClass.ERR_OTHER, who + " does not exist (is the rank on another host?)", e);
        } catch (IOException e) {
            arena.close();
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot map " + who + ": " + e, e);
        } catch (MpiException e) {
            if (arena.scope().isAlive()) {
                arena.close();
            }
            throw e;
        }
    }

    /** @return the file's bytes: the ring, Agrona's trailer, the control block */
    static long fileBytes(int capacity, int size) {
        return (long) capacity + RingBufferDescriptor.TRAILER_LENGTH + controlBytes(size);
    }

    private static int controlBytes(int size) {
        return (PRODUCERS + 4 * size + 4095) & ~4095;
    }

    Path path() {
        return path;
    }

    /** @return the ring's bytes and trailer, for an Agrona ring buffer */
    UnsafeBuffer ring() {
        return ring;
    }

    /** @return the whole mapping (packets show payloads in it) */
    MemorySegment segment() {
        return mapped;
    }

    long pid() {
        return control.getLong(PID);
    }

    // ---- waking the owner ---------------------------------------------------------------------

    /**
     * A record was committed for the owner: wakes the owner if it sleeps. The fence orders the
     * commit before the look at the owner's flag, as the owner orders its flag before its last look
     * at the ring ({@link #prepareSleep}), so either this sees it asleep or it sees the record; the
     * futex word is moved only then, so that a running owner's line is not taken from it per packet.
     */
    void written() {
        VarHandle.fullFence();
        if (control.getIntVolatile(SLEEPING) != 0) {
            signal();
        }
    }

    /** Something happened for the owner: moves the futex word, and wakes the owner if it sleeps. */
    void signal() {
        control.getAndAddInt(SIGNAL, 1);
        if (control.getIntVolatile(SLEEPING) != 0) {
            Futex.wakeAll(control.addressOffset() + SIGNAL);
        }
    }

    /**
     * The owner announces it will sleep: after this, a writer's {@link #signal} moves the word and
     * wakes it. The caller then re-checks for work, and sleeps on the value returned.
     *
     * @return the futex word's value to sleep on
     */
    int prepareSleep() {
        control.putIntVolatile(SLEEPING, 1);
        return control.getIntVolatile(SIGNAL);
    }

    /** Sleeps while the futex word holds {@code seen}, at most as long as {@code timespec} says. */
    void sleep(int seen, MemorySegment timespec) {
        Futex.await(control.addressOffset() + SIGNAL, seen, timespec);
    }

    /** @return the futex word: it moves with every {@link #signal} */
    int signalWord() {
        return control.getIntVolatile(SIGNAL);
    }

    void awake() {
        control.putIntOrdered(SLEEPING, 0);
    }

    // ---- leaving ------------------------------------------------------------------------------

    void markClosed() {
        control.putIntVolatile(CLOSED, 1);
    }

    boolean closed() {
        return control.getIntVolatile(CLOSED) != 0;
    }

    // ---- producers waiting for space ----------------------------------------------------------

    /** Producer {@code rank} found the ring full: the owner wakes it when it has made room. */
    void wantSpace(int rank) {
        control.putIntVolatile(PRODUCERS + 4 * rank, 1);
        control.putIntVolatile(SPACE_WANTED, 1);
    }

    /** @return whether any producer waits for space (cheap: one word) */
    boolean spaceWanted() {
        return control.getIntVolatile(SPACE_WANTED) != 0;
    }

    /**
     * Clears the producers' flags, each cleared before it is reported.
     *
     * @return whether producer {@code rank} wanted space
     */
    boolean takeSpaceWanted(int rank) {
        return control.compareAndSetInt(PRODUCERS + 4 * rank, 1, 0);
    }

    void clearSpaceWanted() {
        control.putIntVolatile(SPACE_WANTED, 0);
    }

    /** Removes the file's name: mappings stay valid, and nothing of the job is left behind. */
    void unlink() {
        if (unlinked) {
            return;
        }
        unlinked = true;
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            org.slf4j.LoggerFactory.getLogger(RingFile.class).warn("cannot remove {}: {}", path, e.toString());
        }
    }

    boolean unlinked() {
        return unlinked;
    }

    /** Unmaps the file; only once nobody reads a packet shown in it. */
    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
