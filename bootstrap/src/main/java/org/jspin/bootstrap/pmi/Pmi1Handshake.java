package org.jspin.bootstrap.pmi;

import java.time.Duration;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * How a {@link Pmi1Client} starts over a connected channel: {@code initack} where the process manager
 * assigns the rank (the {@code PMI_PORT} way), then {@code init}, {@code get_maxes} and
 * {@code get_my_kvsname}. A failure closes the channel.
 */
final class Pmi1Handshake {
    private Pmi1Handshake() {
    }

    /** Initialises over a channel whose rank and size are already known (the {@code PMI_FD} way). */
    static Pmi1Client start(PmiLineChannel channel, int rank, int size, Duration timeout, Deadline deadline) {
        try {
            return initialise(new Pmi1Conversation(channel), rank, size, timeout, deadline);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** Introduces itself with {@code initack}, learns rank and size, then initialises (the {@code PMI_PORT} way). */
    static Pmi1Client startWithInitack(PmiLineChannel channel, String pmiId, Duration timeout, Deadline deadline) {
        try {
            Pmi1Conversation pmi = new Pmi1Conversation(channel);
            String request = "cmd=initack pmiid=" + pmiId;
            pmi.call(request, "initack", deadline);
            Integer size = null;
            Integer rank = null;
            boolean debug = false;
            while (size == null || rank == null || !debug) {
                Pmi1Line set = pmi.expect(pmi.receive(request, deadline), request, "set");
                if (set.fields().size() != 2) {
                    throw pmi.malformed(request, set.text(), "expected one key after cmd=set");
                }
                String key = set.fields().keySet().stream().skip(1).findFirst().orElseThrow();
                String value = set.get(key);
                switch (key) {
                    case "size" -> size = pmi.replyInt(request, set, key, 1);
                    case "rank" -> rank = pmi.replyInt(request, set, key, 0);
                    case "debug" -> debug = true;
                    default -> throw pmi.malformed(request, set.text(), "unknown key '" + key + "=" + value + "'");
                }
            }
            if (rank >= size) {
                throw new MpiException(ErrorClass.ERR_OTHER, "the process manager at " + channel.describe()
                        + " assigned rank " + rank + " in a job of size " + size);
            }
            return initialise(pmi, rank, size, timeout, deadline);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static Pmi1Client initialise(Pmi1Conversation pmi, int rank, int size, Duration timeout, Deadline deadline) {
        pmi.call("cmd=init pmi_version=1 pmi_subversion=1", "response_to_init", deadline);
        String maxesRequest = "cmd=get_maxes";
        Pmi1Line maxes = pmi.call(maxesRequest, "maxes", deadline);
        int kvsNameMax = pmi.replyInt(maxesRequest, maxes, "kvsname_max", 1);
        int keyMax = pmi.replyInt(maxesRequest, maxes, "keylen_max", 1);
        int valueMax = pmi.replyInt(maxesRequest, maxes, "vallen_max", 1);
        String kvsRequest = "cmd=get_my_kvsname";
        Pmi1Line kvs = pmi.call(kvsRequest, "my_kvsname", deadline);
        String kvsName = kvs.get("kvsname");
        if (kvsName == null || kvsName.isEmpty()) {
            throw pmi.malformed(kvsRequest, kvs.text(), "no kvsname");
        }
        return new Pmi1Client(pmi, timeout, rank, size, kvsName, kvsNameMax, keyMax, valueMax);
    }

    /** Closes a connection being abandoned; there is nothing left to tell it. */
    static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // best effort
        }
    }
}
