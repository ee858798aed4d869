package org.jspin.bench.pack;

import java.lang.management.ManagementFactory;
import java.util.List;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Whether HotSpot's JIT is compiling, or has queued, a method of the code being measured: the
 * {@code Compiler.queue} diagnostic command ({@code jcmd PID Compiler.queue}) read through its
 * MBean. While such a compilation is pending, the measured code still runs at a lower tier, and for
 * the engine's Vector API kernels that is up to 50 times slower than the C2 code to come.
 */
final class JitActivity {
    /** Packages whose pending compilation means the measured path is not final yet. */
    static final List<String> MEASURED = List.of(" org.jspin.", " jdk.incubator.vector.");

    private static final String[] NO_ARGS = {null};
    private static final String[] SIGNATURE = {String[].class.getName()};

    private final MBeanServer server;
    private final ObjectName command;

    private JitActivity(MBeanServer server, ObjectName command) {
        this.server = server;
        this.command = command;
    }

    /** @return a probe, or null if this JVM has no diagnostic command MBean (then nothing is known) */
    static JitActivity probe() {
        try {
            MBeanServer s = ManagementFactory.getPlatformMBeanServer();
            ObjectName n = new ObjectName("com.sun.management:type=DiagnosticCommand");
            return s.isRegistered(n) ? new JitActivity(s, n) : null;
        } catch (JMException | RuntimeException e) {
            return null;
        }
    }

    /** @return whether a method of {@link #MEASURED} is being compiled or waits in a compile queue */
    boolean compilingMeasuredCode() {
        String queue;
        try {
            queue = String.valueOf(server.invoke(command, "compilerQueue", NO_ARGS, SIGNATURE));
        } catch (JMException | RuntimeException e) {
            return false;
        }
        for (String p : MEASURED) {
            if (queue.contains(p)) {
                return true;
            }
        }
        return false;
    }
}
