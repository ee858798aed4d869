package org.jspin.bootstrap.pmi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** A connected pair of Unix-domain stream descriptors from libc's socketpair, standing in for Hydra's PMI_FD. */
@SuppressWarnings("restricted") // a libc downcall is the point
final class NativeSocketPair {
    private static final int AF_UNIX = 1;
    private static final int SOCK_STREAM = 1;
    private static final MethodHandle SOCKETPAIR;

    static {
        Linker linker = Linker.nativeLinker();
        SOCKETPAIR = linker.downcallHandle(linker.defaultLookup().find("socketpair").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    }

    private NativeSocketPair() {
    }

    /** @return two connected descriptors; whoever wraps them in an {@link FdLineChannel} closes them */
    static int[] open() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(JAVA_INT, 2);
            int rc = (int) SOCKETPAIR.invokeExact(AF_UNIX, SOCK_STREAM, 0, fds);
            if (rc != 0) {
                throw new IllegalStateException("socketpair failed: " + rc);
            }
            return new int[] {fds.getAtIndex(JAVA_INT, 0), fds.getAtIndex(JAVA_INT, 1)};
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
