package org.jspin.bootstrap.pmi;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A PMI-1 server in the test JVM that answers the way Hydra 4.0.2 was seen to answer (the strings
 * below are what {@code mpiexec.hydra} sent to a probe): a shared key-value space, a barrier over
 * every connection, and per-command overrides for the unhappy paths.
 */
final class FakePmiServer implements AutoCloseable {
    static final String KVS = "kvs_fake_0";
    /** An override that makes the server hang up instead of answering. */
    static final String HANG_UP = "<hang up>";

    private final int size;
    private final Map<String, Integer> ranksByPmiId;
    private final ServerSocket listener;
    /** Every line received, from every connection, in arrival order. */
    final List<String> received = new CopyOnWriteArrayList<>();
    /** The key-value space. */
    final Map<String, String> kvs = new ConcurrentHashMap<>();
    private final Map<String, List<String>> overrides = new ConcurrentHashMap<>();
    private final List<PmiLineChannel> inBarrier = new ArrayList<>();
    private final List<PmiLineChannel> open = new CopyOnWriteArrayList<>();

    private FakePmiServer(int size, Map<String, Integer> ranksByPmiId, ServerSocket listener) {
        this.size = size;
        this.ranksByPmiId = ranksByPmiId;
        this.listener = listener;
    }

    /** A server on a loopback port, speaking the {@code -pmi-port} dialect (initack first). */
    static FakePmiServer listening(int size, Map<String, Integer> ranksByPmiId) throws IOException {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        FakePmiServer server = new FakePmiServer(size, ranksByPmiId, listener);
        Thread.ofPlatform().daemon().name("fake-pmi-accept").start(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket s = listener.accept();
                    server.serve(new SocketLineChannel(s, "client " + s.getRemoteSocketAddress()));
                } catch (IOException e) {
                    return;
                }
            }
        });
        return server;
    }

    /** A server for channels handed to {@link #serve} (the {@code PMI_FD} dialect: no initack). */
    static FakePmiServer forDescriptors(int size) {
        return new FakePmiServer(size, null, null);
    }

    /** Serves the server's end of an {@code PMI_FD} socket pair. */
    void serveFd(int fd) throws IOException {
        serve(new FdLineChannel(fd));
    }

    /** @return the loopback port of a {@link #listening} server */
    int port() {
        return listener.getLocalPort();
    }

    /** From now on answer {@code cmd} with these lines (none: stay silent; {@link #HANG_UP}: close). */
    void answer(String cmd, String... lines) {
        overrides.put(cmd, List.of(lines));
    }

    /** @return whether {@code line} arrives within {@code millis} */
    boolean awaitReceived(String line, long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            if (received.contains(line)) {
                return true;
            }
            Thread.sleep(10);
        }
        return received.contains(line);
    }

    void serve(PmiLineChannel channel) {
        open.add(channel);
        Thread.ofPlatform().daemon().name("fake-pmi-" + channel.describe()).start(() -> {
            try (channel) {
                converse(channel);
            } catch (EOFException e) {
                // the client went away
            } catch (IOException e) {
                // closed under us by close(), or the client broke: either way this conversation is over
            }
        });
    }

    private void converse(PmiLineChannel channel) throws IOException {
        long far = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        if (ranksByPmiId != null) {
            String hello = channel.readLine(far);
            received.add(hello);
            Pmi1Line line = Pmi1Line.parse(hello);
            List<String> override = overrides.get("initack");
            if (override != null) {
                if (!reply(channel, override, far)) {
                    return;
                }
            } else {
                Integer rank = ranksByPmiId.get(line.get("pmiid"));
                if (!"initack".equals(line.cmd()) || rank == null) {
                    return;
                }
                channel.writeLine("cmd=initack", far);
                channel.writeLine("cmd=set size=" + size, far);
                channel.writeLine("cmd=set rank=" + rank, far);
                channel.writeLine("cmd=set debug=0", far);
            }
        }
        while (true) {
            String text = channel.readLine(far);
            received.add(text);
            Pmi1Line line = Pmi1Line.parse(text);
            List<String> override = overrides.get(line.cmd());
            if (override != null) {
                if (!reply(channel, override, far)) {
                    return;
                }
                continue;
            }
            switch (line.cmd()) {
                case "init" -> channel.writeLine("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0", far);
                case "get_maxes" -> channel.writeLine("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024", far);
                case "get_my_kvsname" -> channel.writeLine("cmd=my_kvsname kvsname=" + KVS, far);
                case "put" -> {
                    kvs.put(line.get("key"), line.get("value"));
                    channel.writeLine("cmd=put_result rc=0 msg=success", far);
                }
                case "get" -> {
                    String value = kvs.get(line.get("key"));
                    channel.writeLine(value != null ? "cmd=get_result rc=0 msg=success value=" + value
                            : "cmd=get_result rc=-1 msg=key_" + line.get("key") + "_not_found value=unknown", far);
                }
                case "barrier_in" -> enterBarrier(channel, far);
                case "finalize" -> channel.writeLine("cmd=finalize_ack", far);
                default -> {
                    // abort, or a command Hydra does not know: Hydra ends the job, we end the conversation
                    return;
                }
            }
        }
    }

    private boolean reply(PmiLineChannel channel, List<String> lines, long far) throws IOException {
        for (String l : lines) {
            if (HANG_UP.equals(l)) {
                return false;
            }
            channel.writeLine(l, far);
        }
        return true;
    }

    private synchronized void enterBarrier(PmiLineChannel channel, long far) throws IOException {
        inBarrier.add(channel);
        if (inBarrier.size() == size) {
            for (PmiLineChannel c : inBarrier) {
                c.writeLine("cmd=barrier_out", far);
            }
            inBarrier.clear();
        }
    }

    @Override
    public void close() throws IOException {
        if (listener != null) {
            listener.close();
        }
        // descriptor channels are closed by their conversation threads when the clients hang up
        for (PmiLineChannel c : open) {
            if (c instanceof SocketLineChannel) {
                c.close();
            }
        }
    }
}
