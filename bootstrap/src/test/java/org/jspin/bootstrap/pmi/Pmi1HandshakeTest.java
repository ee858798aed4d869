package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class Pmi1HandshakeTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final String[] INIT = {"cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1",
        "cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024", "cmd=my_kvsname rc=0 kvsname=kvs_7"};

    private static String[] initackThen(String... set) {
        String[] all = new String[1 + set.length + INIT.length];
        all[0] = "cmd=initack rc=0";
        System.arraycopy(set, 0, all, 1, set.length);
        System.arraycopy(INIT, 0, all, 1 + set.length, INIT.length);
        return all;
    }

    @Test
    void startInitialisesAndLearnsTheLimitsAndTheKeyValueSpace() {
        ScriptedChannel channel = new ScriptedChannel(false, INIT);
        Pmi1Client client = Pmi1Handshake.start(channel, 1, 3, TIMEOUT, Deadline.after(TIMEOUT));
        assertEquals(List.of("cmd=init pmi_version=1 pmi_subversion=1", "cmd=get_maxes", "cmd=get_my_kvsname"), channel.written);
        assertEquals(1, client.rank());
        assertEquals(3, client.size());
        assertEquals("kvs_7", client.kvsName());
        assertEquals(256, client.maxKvsNameLength());
        assertEquals(64, client.maxKeyLength());
        assertEquals(1024, client.maxValueLength());
        assertFalse(channel.closed);
    }

    @Test
    void initackLearnsSizeAndRankInAnyOrder() {
        ScriptedChannel channel = new ScriptedChannel(false, initackThen("cmd=set rank=2", "cmd=set debug=0", "cmd=set size=4"));
        Pmi1Client client = Pmi1Handshake.startWithInitack(channel, "17", TIMEOUT, Deadline.after(TIMEOUT));
        assertEquals("cmd=initack pmiid=17", channel.written.getFirst());
        assertEquals(2, client.rank());
        assertEquals(4, client.size());
    }

    @Test
    void aFailedHandshakeClosesTheChannelAndSaysWhy() {
        ScriptedChannel unknown = new ScriptedChannel(false, initackThen("cmd=set colour=blue"));
        MpiException e = assertThrows(MpiException.class,
                () -> Pmi1Handshake.startWithInitack(unknown, "0", TIMEOUT, Deadline.after(TIMEOUT)));
        assertTrue(e.getMessage().contains("unknown key 'colour=blue'"), e.getMessage());
        assertTrue(unknown.closed);

        ScriptedChannel outside = new ScriptedChannel(false, initackThen("cmd=set size=2", "cmd=set rank=2", "cmd=set debug=1"));
        e = assertThrows(MpiException.class, () -> Pmi1Handshake.startWithInitack(outside, "0", TIMEOUT, Deadline.after(TIMEOUT)));
        assertTrue(e.getMessage().contains("assigned rank 2 in a job of size 2"), e.getMessage());
        assertTrue(outside.closed);

        ScriptedChannel noKvs = new ScriptedChannel(false, INIT[0], INIT[1], "cmd=my_kvsname rc=0");
        e = assertThrows(MpiException.class, () -> Pmi1Handshake.start(noKvs, 0, 1, TIMEOUT, Deadline.after(TIMEOUT)));
        assertTrue(e.getMessage().contains("(no kvsname)"), e.getMessage());
        assertTrue(noKvs.closed);
    }

    @Test
    void aSetWithMoreThanOneKeyIsMalformed() {
        ScriptedChannel channel = new ScriptedChannel(false, initackThen("cmd=set size=2 rank=0"));
        MpiException e = assertThrows(MpiException.class,
                () -> Pmi1Handshake.startWithInitack(channel, "0", TIMEOUT, Deadline.after(TIMEOUT)));
        assertTrue(e.getMessage().contains("expected one key after cmd=set"), e.getMessage());
    }
}
