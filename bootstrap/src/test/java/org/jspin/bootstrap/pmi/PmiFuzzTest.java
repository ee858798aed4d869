package org.jspin.bootstrap.pmi;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Map;
import java.util.Random;

import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The PMI-1 side against random and mutated input: the line parser against 100,000 random lines
 * built from PMI's own vocabulary (half of them shaped like lines), and the client against 1,000 servers whose replies to the start
 * of the conversation (init, maxes, kvsname) and to a put and a get are Hydra's with characters
 * flipped, fields cut, duplicated or swapped for noise. The parser must parse or say what is wrong
 * ({@link IllegalArgumentException}); the client must work or fail with an {@link MpiException}
 * within its timeout, never with anything else. Failures name their seed.
 */
class PmiFuzzTest {
    private static final String[] WORDS = {"cmd", "=", " ", "rc", "0", "-1", "kvsname", "kvs_fake_0", "value",
        "key", "maxes", "put_result", "get_result", "my_kvsname", "response_to_init", "pmi_version", "1", "==",
        "keylen_max", "vallen_max", "64", "999999999999", "msg", "x", "\t", "\u00e9", ""};
    private static final String[][] REPLIES = {
        {"init", "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0"},
        {"get_maxes", "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024"},
        {"get_my_kvsname", "cmd=my_kvsname kvsname=" + FakePmiServer.KVS},
        {"put", "cmd=put_result rc=0 msg=success"},
        {"get", "cmd=get_result rc=0 msg=success value=host:1"},
    };

    @Test
    @Timeout(60)
    void theLineParserParsesOrSaysWhatIsWrong() {
        int parsed = 0;
        for (int c = 0; c < 100_000; c++) {
            long seed = 0xB41_0000L + c;
            Random rnd = new Random(seed);
            StringBuilder b = new StringBuilder();
            if (rnd.nextBoolean()) { // shaped like a line: cmd=..., then key=value fields
                b.append("cmd=").append(WORDS[rnd.nextInt(WORDS.length)]);
                for (int k = rnd.nextInt(5); k > 0; k--) {
                    b.append(' ').append(WORDS[rnd.nextInt(WORDS.length)]).append('=').append(WORDS[rnd.nextInt(WORDS.length)]);
                }
            } else { // words in any order
                for (int k = rnd.nextInt(12); k > 0; k--) {
                    b.append(WORDS[rnd.nextInt(WORDS.length)]);
                }
            }
            try {
                Pmi1Line line = Pmi1Line.parse(b.toString());
                assertTrue(line.cmd() != null, "seed " + seed);
                parsed++;
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "seed " + seed);
            } catch (RuntimeException e) {
                fail("seed " + seed + ": '" + b + "': " + e, e);
            }
        }
        assertTrue(parsed > 1000, "some lines parsed: " + parsed);
    }

    private static String mutate(Random rnd, String reply) {
        StringBuilder b = new StringBuilder(reply);
        switch (rnd.nextInt(6)) {
            case 0 -> b.setCharAt(rnd.nextInt(b.length()), (char) (32 + rnd.nextInt(95)));
            case 1 -> b.setLength(rnd.nextInt(b.length()));
            case 2 -> b.append(' ').append(b.substring(b.indexOf(" ") + 1)); // every field twice
            case 3 -> b.insert(rnd.nextInt(b.length()), WORDS[rnd.nextInt(WORDS.length)]);
            case 4 -> b.replace(0, b.length(), "cmd=" + WORDS[rnd.nextInt(WORDS.length)]);
            default -> b.deleteCharAt(rnd.nextInt(b.length()));
        }
        return b.toString();
    }

    @Test
    @Timeout(300)
    void theClientWorksOrFailsWithAnMpiExceptionWhateverTheServerSays() throws Exception {
        int failed = 0;
        for (int c = 0; c < 1_000; c++) {
            long seed = 0x9A1_0000L + c;
            Random rnd = new Random(seed);
            String[] victim = REPLIES[rnd.nextInt(REPLIES.length)];
            String reply = mutate(rnd, victim[1]);
            try (FakePmiServer server = FakePmiServer.listening(1, Map.of("0", 0))) {
                server.answer(victim[0], reply);
                try (Pmi1Client client = Pmi1Client.connect(Map.of("PMI_PORT", "127.0.0.1:" + server.port(),
                        "PMI_ID", "0"), Duration.ofSeconds(2))) {
                    client.put("k", "host:1");
                    client.get("k");
                }
            } catch (MpiException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "seed " + seed);
                failed++;
            } catch (Throwable t) {
                fail("seed " + seed + ": the server answered '" + victim[0] + "' with '" + reply + "': " + t, t);
            }
        }
        assertTrue(failed > 100, "mutated replies were refused: " + failed);
    }
}
