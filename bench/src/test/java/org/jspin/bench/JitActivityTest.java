package org.jspin.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiler activity is read from the compiler threads' ticks in a {@code /proc/<pid>/task} directory;
 * pending compilations of the measured code from the diagnostic command's compile queue.
 */
class JitActivityTest {

    /** The one operation of the diagnostic command MBean that is asked, as a standard MBean. */
    public interface QueueMBean {
        /** @return the compile queue as {@code jcmd PID Compiler.queue} prints it */
        String compilerQueue(String[] args);
    }

    /** A compile queue that prints what the test set. */
    public static final class Queue implements QueueMBean {
        volatile String printed = "";
        volatile int asked;

        @Override
        public String compilerQueue(String[] args) {
            asked++;
            return printed;
        }
    }

    /** Writes a task as Linux shows it: {@code comm}, and {@code stat} with utime and stime. */
    private static void task(Path tasks, String tid, String name, long utime, long stime) throws IOException {
        Path t = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(t.resolve("comm"), name + "\n");
        Files.writeString(t.resolve("stat"), tid + " (" + name + ") S 1 1 1 0 -1 4194368 10 0 0 0 " + utime + " "
                + stime + " 0 0 20 0 1 0 100 0 0\n");
    }

    @Test
    void countsWhatTheCompilerThreadsDidSinceTheLastLook(@TempDir Path tasks) throws IOException {
        task(tasks, "101", "java", 500, 20);
        task(tasks, "102", "C2 CompilerThre", 40, 2);
        task(tasks, "103", "C1 CompilerThre", 7, 1);
        JitActivity jit = new JitActivity(tasks, null);
        assertEquals(0, jit.since(), "nothing changed");

        task(tasks, "101", "java", 900, 30); // the application thread works: not the JIT's
        assertEquals(0, jit.since());

        task(tasks, "102", "C2 CompilerThre", 45, 3);
        assertEquals(6, jit.since(), "a compilation that is running counts, user and system ticks");
        assertEquals(0, jit.since());
    }

    @Test
    void aNewCompilerThreadCountsWholeAndOneThatEndedNeverCountsBackwards(@TempDir Path tasks) throws IOException {
        task(tasks, "102", "C2 CompilerThre", 40, 2);
        JitActivity jit = new JitActivity(tasks, null);
        task(tasks, "104", "C2 CompilerThre", 3, 0); // HotSpot added a compiler thread
        assertEquals(3, jit.since());
        Files.delete(tasks.resolve("102").resolve("comm"));
        Files.delete(tasks.resolve("102").resolve("stat"));
        Files.delete(tasks.resolve("102")); // and removed one
        assertEquals(0, jit.since());
        task(tasks, "102", "C2 CompilerThre", 1, 0); // a thread id used again starts afresh
        assertEquals(1, jit.since());
    }

    @Test
    void namesWithSpacesAndParenthesesAreSkippedOver(@TempDir Path tasks) throws IOException {
        task(tasks, "105", "C2 CompilerThre", 10, 0);
        Path t = tasks.resolve("106");
        Files.createDirectories(t);
        Files.writeString(t.resolve("comm"), "odd) CompilerThre\n");
        Files.writeString(t.resolve("stat"), "106 (odd) CompilerThre) S 1 1 1 0 -1 4194368 10 0 0 0 5 5 0 0 20 0 1 0 1 0 0\n");
        JitActivity jit = new JitActivity(tasks, null);
        task(tasks, "105", "C2 CompilerThre", 12, 0);
        Files.writeString(t.resolve("stat"), "106 (odd) CompilerThre) S 1 1 1 0 -1 4194368 10 0 0 0 8 5 0 0 20 0 1 0 1 0 0\n");
        assertEquals(5, jit.since(), "2 + 3 ticks");
    }

    @Test
    void withoutProcOnlyEndedCompilationsCount(@TempDir Path dir) {
        JitActivity jit = new JitActivity(dir.resolve("absent"), null);
        assertEquals(0, jit.since());
    }

    @Test
    void thisJvmsCompilerThreadsGoByTheNameLookedFor() throws IOException {
        Path self = Path.of("/proc/self/task");
        Assumptions.assumeTrue(Files.isDirectory(self), "Linux only");
        Assumptions.assumeTrue(ManagementFactory.getCompilationMXBean() != null, "a JVM with a JIT");
        boolean found = false;
        try (Stream<Path> all = Files.list(self)) {
            for (Path t : (Iterable<Path>) all::iterator) {
                try {
                    found |= Files.readString(t.resolve("comm")).startsWith("C2 CompilerThre")
                            || Files.readString(t.resolve("comm")).startsWith("C1 CompilerThre");
                } catch (IOException ended) {
                    // a thread that ended while listed
                }
            }
        }
        assertTrue(found, "HotSpot's compiler threads are named C1/C2 CompilerThread (cut at 15 characters)");
    }

    @Test
    void aQueuedMethodOfTheMeasuredCodeMeansCompilingAndOthersDoNot(@TempDir Path dir) throws JMException {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        Queue queue = new Queue();
        server.registerMBean(queue, JitActivity.QUEUE_COMMAND);
        JitActivity jit = new JitActivity(dir.resolve("absent"), null, () -> server);
        assertEquals(0, queue.asked, "the queue is not looked at before it is asked for");
        queue.printed = "Current compiles:\nC2 CompilerThread0\n 1234  4  java.util.HashMap::get (23 bytes)\n";
        assertFalse(jit.compilingMeasuredCode(), "the JDK's own methods are not the measured code");
        queue.printed = "C2 compile queue:\n 1240  4  org.jspin.datatype.kernel.Vec::pack (80 bytes)\n";
        assertTrue(jit.compilingMeasuredCode());
        queue.printed = "C1 compile queue:\n 1241  3  jdk.incubator.vector.ByteVector::fromMemorySegment (9 bytes)\n";
        assertTrue(jit.compilingMeasuredCode());
        assertEquals(3, queue.asked);
    }

    @Test
    void withoutTheDiagnosticCommandNothingIsKnownSoNothingIsCompiling(@TempDir Path dir) {
        JitActivity none = new JitActivity(dir.resolve("absent"), null, () -> null);
        assertFalse(none.compilingMeasuredCode());
        JitActivity elsewhere = new JitActivity(dir.resolve("absent"), null, MBeanServerFactory::newMBeanServer);
        assertFalse(elsewhere.compilingMeasuredCode(), "a server without the MBean");
        JitActivity failing = new JitActivity(dir.resolve("absent"), null, () -> {
            throw new IllegalStateException("no platform server");
        });
        assertFalse(failing.compilingMeasuredCode());
    }
}
