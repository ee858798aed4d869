package org.jspin.bootstrap.rendezvous;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

import org.jspin.bootstrap.SecretProof;

/**
 * The server's half of a rank's handshake on one connection: the hello read and checked, the
 * challenge sent (with the server's proof), the rank's proof verified, and only then what the rank
 * claims (job, rank, endpoint) checked, so an outsider learns nothing about the job from a refusal.
 */
final class ServerHandshake {
    /** A connection must say hello (and then prove it) this soon; a silent one is dropped rather than holding a thread. */
    static final long HELLO_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** How a handshake ended. */
    sealed interface Outcome {
    }

    /** @param hello the hello of a rank that proved it holds the secret and claims a place in this job */
    record Proven(Hello hello) implements Outcome {
    }

    /** @param reason why the connection is refused (never naming the secret) */
    record Refused(String reason) implements Outcome {
    }

    /** @param when when the peer closed: "without a hello", "after the challenge" */
    record Closed(String when) implements Outcome {
    }

    private final byte[] secret;
    private final String jobId;
    private final int size;

    /** @param secret the job secret; {@code jobId} and {@code size} are what a proven rank's claims are checked against */
    ServerHandshake(byte[] secret, String jobId, int size) {
        this.secret = secret;
        this.jobId = jobId;
        this.size = size;
    }

    /**
     * Runs the handshake, both lines bounded by {@link #HELLO_TIMEOUT_NANOS} from now.
     *
     * @throws IOException when the connection fails (other than by a timeout or a malformed line)
     */
    Outcome run(Wire.LineReader in, OutputStream out) throws IOException {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(HELLO_TIMEOUT_NANOS);
        in.deadline(System.nanoTime() + HELLO_TIMEOUT_NANOS);
        try {
            String line;
            try {
                line = in.readLine();
            } catch (SocketTimeoutException e) {
                return new Refused("no hello within " + seconds + " s");
            }
            if (line == null) {
                return new Closed("without a hello");
            }
            String[] f = line.split(" ", -1);
            String bad = Hello.problem(f);
            if (bad != null) {
                return new Refused(bad);
            }
            Hello hello = Hello.of(f);
            // challenge and response: both sides prove the secret; it never crosses the wire
            byte[] nonce = SecretProof.nonce();
            Wire.writeLine(out, Wire.VERSION, Wire.CHALLENGE, SecretProof.hex(nonce), SecretProof.hex(proof(true, hello, nonce)));
            String answer;
            try {
                answer = in.readLine();
            } catch (SocketTimeoutException e) {
                return new Refused("no proof within " + seconds + " s");
            }
            if (answer == null) {
                return new Closed("after the challenge");
            }
            String[] p = answer.split(" ", -1);
            byte[] proof = p.length == 3 && p[0].equals(Wire.VERSION) && p[1].equals(Wire.PROOF) ? SecretProof.unhex(p[2]) : null;
            if (proof == null) {
                return new Refused("malformed proof: expected '" + Wire.VERSION + " " + Wire.PROOF + " <64 hex digits>'");
            }
            // the secret first: an outsider learns nothing about the job from what we refuse
            if (!SecretProof.matches(proof(false, hello, nonce), proof)) {
                return new Refused("wrong secret");
            }
            bad = hello.claimsProblem(jobId, size);
            return bad != null ? new Refused(bad) : new Proven(hello);
        } catch (ProtocolException e) {
            return new Refused("malformed hello: " + e.getMessage());
        }
    }

    /** @return the server's proof ({@code server}) or the one expected of the rank, for this hello and challenge */
    private byte[] proof(boolean server, Hello hello, byte[] nonce) {
        return Wire.proof(secret, server, hello.job(), hello.rank(), hello.endpoint(), hello.nonce(), nonce);
    }
}
