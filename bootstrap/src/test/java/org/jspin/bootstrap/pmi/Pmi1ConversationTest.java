package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

class Pmi1ConversationTest {
    private static final Deadline SOON = Deadline.after(Duration.ofSeconds(1));

    private static String failure(Runnable call) {
        MpiException e = assertThrows(MpiException.class, call::run);
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        return e.getMessage();
    }

    @Test
    void callSendsTheRequestAndReturnsTheExpectedReply() {
        ScriptedChannel channel = new ScriptedChannel(false, "cmd=get_result rc=0 value=v");
        Pmi1Line reply = new Pmi1Conversation(channel).call("cmd=get key=k", "get_result", SOON);
        assertEquals("v", reply.get("value"));
        assertEquals(List.of("cmd=get key=k"), channel.written);
    }

    @Test
    void aRefusalNamesTheRequestTheCodeAndTheMessage() {
        Pmi1Conversation pmi = new Pmi1Conversation(new ScriptedChannel(false, "cmd=get_result rc=-1 msg=key_k_not_found"));
        String m = failure(() -> pmi.call("cmd=get key=k", "get_result", SOON));
        assertTrue(m.contains("refused 'cmd=get key=k' (rc=-1, msg=key_k_not_found)"), m);
    }

    @Test
    void converseReturnsARefusalWithoutThrowing() {
        Pmi1Conversation pmi = new Pmi1Conversation(new ScriptedChannel(false, "cmd=put_result rc=3"));
        assertEquals("3", pmi.converse("cmd=put", "put_result", SOON).get("rc"));
    }

    @Test
    void aWrongCommandAMissingOrBadRcAndNonsenseAreMalformed() {
        assertTrue(failure(() -> new Pmi1Conversation(new ScriptedChannel(false, "cmd=maxes"))
                .call("cmd=init", "response_to_init", SOON)).contains("expected cmd=response_to_init"));
        assertTrue(failure(() -> new Pmi1Conversation(new ScriptedChannel(false, "cmd=put_result"))
                .call("cmd=put", "put_result", SOON)).contains("(no rc)"));
        assertTrue(failure(() -> new Pmi1Conversation(new ScriptedChannel(false, "cmd=barrier_out rc=x"))
                .call("cmd=barrier_in", "barrier_out", SOON)).contains("rc is not a number"));
        String m = failure(() -> new Pmi1Conversation(new ScriptedChannel(false, "garbage\tline"))
                .call("cmd=barrier_in", "barrier_out", SOON));
        assertTrue(m.contains("malformed PMI-1 reply to 'cmd=barrier_in' from script: 'garbage\\tline'"), m);
    }

    @Test
    void aReplyWithoutRcIsFineWhereNoneIsPromised() {
        Pmi1Conversation pmi = new Pmi1Conversation(new ScriptedChannel(false, "cmd=barrier_out"));
        assertEquals("barrier_out", pmi.call("cmd=barrier_in", "barrier_out", SOON).cmd());
    }

    @Test
    void silenceAndAClosedConnectionAreTransportFailures() {
        String late = failure(() -> new Pmi1Conversation(new ScriptedChannel(false)).call("cmd=barrier_in", "barrier_out",
                Deadline.after(Duration.ofSeconds(7))));
        assertTrue(late.contains("no reply to 'cmd=barrier_in'") && late.contains("within PT7S"), late);
        String gone = failure(() -> new Pmi1Conversation(new ScriptedChannel(true)).call("cmd=barrier_in", "barrier_out", SOON));
        assertTrue(gone.contains("the process manager closed script before answering 'cmd=barrier_in'"), gone);
        ScriptedChannel closed = new ScriptedChannel(false);
        closed.close();
        String broken = failure(() -> new Pmi1Conversation(closed).call("cmd=finalize", "finalize_ack", SOON));
        assertTrue(broken.contains("PMI-1 'cmd=finalize' over script failed: closed"), broken);
    }

    @Test
    void replyIntWantsANumberOfAtLeastTheMinimum() {
        Pmi1Conversation pmi = new Pmi1Conversation(new ScriptedChannel(false));
        Pmi1Line maxes = Pmi1Line.parse("cmd=maxes kvsname_max=256 keylen_max=0 vallen_max=x");
        assertEquals(256, pmi.replyInt("cmd=get_maxes", maxes, "kvsname_max", 1));
        assertTrue(failure(() -> pmi.replyInt("cmd=get_maxes", maxes, "keylen_max", 1)).contains("keylen_max=0 is not a number >= 1"));
        assertTrue(failure(() -> pmi.replyInt("cmd=get_maxes", maxes, "vallen_max", 1)).contains("vallen_max=x is not a number"));
        assertTrue(failure(() -> pmi.replyInt("cmd=get_maxes", maxes, "other", 1)).contains("(no other)"));
    }
}
