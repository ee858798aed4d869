package org.jspin.bench.pingpong;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Pins the calling thread to one CPU, through Linux's {@code sched_setaffinity} (pid 0: the calling
 * thread), for probes that must run on given cores inside one JVM; ranks are bound as whole
 * processes, under {@code taskset}, instead.
 */
public final class CpuAffinity {
    /** Bytes of the CPU mask passed: 1024 CPUs, glibc's {@code cpu_set_t}. */
    private static final long MASK_BYTES = 128;

    private CpuAffinity() {
    }

    /**
     * @param cpu the CPU the calling thread may run on from now on
     * @throws MpiException ERR_ARG naming the CPU if it is out of the mask's range; ERR_OTHER with the
     *                      error number if the kernel refuses it (a CPU this process may not use)
     */
    public static void pinCurrentThread(int cpu) {
        check(cpu);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            mask.set(ValueLayout.JAVA_LONG, (cpu / 64) * 8L, 1L << (cpu % 64));
            MemorySegment errno = arena.allocate(Linker.Option.captureStateLayout());
            int rc = (int) Native.SET_AFFINITY.invokeExact(errno, 0, MASK_BYTES, mask);
            if (rc != 0) {
                int code = errno.get(ValueLayout.JAVA_INT, Linker.Option.captureStateLayout()
                        .byteOffset(MemoryLayout.PathElement.groupElement("errno")));
                throw new MpiException(ErrorClass.ERR_OTHER, "sched_setaffinity to CPU " + cpu + " failed, errno " + code);
            }
        } catch (MpiException e) {
            throw e;
        } catch (Throwable t) {
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot pin a thread to CPU " + cpu + ": " + t, t);
        }
    }

    /**
     * @param cpu a CPU number
     * @throws MpiException ERR_ARG naming it if it is out of the mask's range
     */
    public static void check(int cpu) {
        if (cpu < 0 || cpu >= MASK_BYTES * 8) {
            throw new MpiException(ErrorClass.ERR_ARG, "CPU must be in [0, " + MASK_BYTES * 8 + "), got " + cpu);
        }
    }

    /** The downcall, made on first use (it needs native access, which the launcher grants). */
    private static final class Native {
        static final MethodHandle SET_AFFINITY = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("sched_setaffinity").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
                Linker.Option.captureCallState("errno"));
    }
}
