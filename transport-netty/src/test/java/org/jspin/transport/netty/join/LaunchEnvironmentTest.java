package org.jspin.transport.netty.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Stream;

import org.jspin.bootstrap.rendezvous.RendezvousClient;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.launch.Launched;
import org.jspin.nic.launch.Launches;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What each launcher's variables turn into, and the loud failures when they are incomplete. */
class LaunchEnvironmentTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private final LaunchEnvironment env = new LaunchEnvironment();

    @Test
    void aProgramStartedOnItsOwnIsNoRankOfAnything() {
        assertTrue(env.detect(Map.of("HOME", "/root")).isEmpty());
        assertTrue(Launches.detect(Map.of("HOME", "/root")).isEmpty());
        assertTrue(!Launches.announced(Map.of("HOME", "/root")));
    }

    @Test
    void jspinRunGivesRankSizeJobAndARendezvousClient() {
        Launched l = env.detect(Map.of("JSPIN_RANK", "2", "JSPIN_SIZE", "3", "JSPIN_JOB", "run-1", "JSPIN_SECRET", SECRET,
                "JSPIN_RENDEZVOUS", "127.0.0.1:4000")).orElseThrow();
        assertEquals(2, l.rank());
        assertEquals(3, l.job().size());
        assertEquals("run-1", l.job().id());
        assertEquals("netty", l.fabric());
        assertEquals("jspin", l.launcher());
        NettyLaunch launch = l.job().attachment(NettyLaunch.KEY, NettyLaunch.class, () -> null);
        assertEquals(SECRET, launch.secret());
        assertEquals(NettyLaunch.LOOPBACK, launch.bindHost());
        assertInstanceOf(RendezvousClient.class, launch.exchange());
    }

    @Test
    void aPortInTheBindAddressIsTheBaseOfEveryRanksPort() {
        Map<String, String> run = Map.of("JSPIN_RANK", "1", "JSPIN_SIZE", "2", "JSPIN_JOB", "run-2", "JSPIN_SECRET", SECRET,
                "JSPIN_RENDEZVOUS", "127.0.0.1:4000");
        for (String[] c : new String[][] {{"127.0.0.2:7000", "127.0.0.2", "7000"}, {"127.0.0.2", "127.0.0.2", "0"},
                {"[::1]:7000", "::1", "7000"}, {"[::1]", "::1", "0"}, {"::1", "::1", "0"}, {"localhost:0", "localhost", "0"}}) {
            Map<String, String> env = new java.util.HashMap<>(run);
            env.put("JSPIN_BIND", c[0]);
            NettyLaunch launch = this.env.detect(env).orElseThrow().job().attachment(NettyLaunch.KEY, NettyLaunch.class,
                    () -> null);
            assertEquals(c[0], launch.bindHost());
            assertEquals(c[1], launch.listenHost(), c[0]);
            assertEquals(Integer.parseInt(c[2]), launch.basePort(), c[0]);
        }
        Map<String, String> env = new java.util.HashMap<>(run);
        env.put("JSPIN_BIND", "127.0.0.1:port");
        MpiException e = assertThrows(MpiException.class, () -> this.env.detect(env));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("JSPIN_BIND") && e.getMessage().contains("'127.0.0.1:port'"), e.getMessage());
    }

    @Test
    void openMpiAndSlurmUseTheRendezvousOfRankZeroAndTheGivenBindAddress() {
        Launched o = env.detect(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2", "JSPIN_SECRET", SECRET,
                "JSPIN_RENDEZVOUS", "127.0.0.1:4001", "JSPIN_BIND", "127.0.0.2", "JSPIN_CONNECT_TIMEOUT", "7")).orElseThrow();
        assertEquals("ompi", o.launcher());
        assertEquals(1, o.rank());
        NettyLaunch launch = o.job().attachment(NettyLaunch.KEY, NettyLaunch.class, () -> null);
        assertEquals("127.0.0.2", launch.bindHost());
        assertEquals(7, launch.connectTimeout().toSeconds());
        Launched s = env.detect(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "4", "SLURM_JOB_ID", "77", "SLURM_STEP_ID",
                "3", "JSPIN_SECRET", SECRET, "JSPIN_RENDEZVOUS", "127.0.0.1:4002")).orElseThrow();
        assertEquals("slurm-77.3", s.job().id());
        assertEquals(4, s.job().size());
    }

    @Test
    void aSingleTaskNeedsNoRendezvous() {
        Launched s = env.detect(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1")).orElseThrow();
        assertEquals(1, s.job().size());
        assertEquals(0, s.rank());
    }

    static Stream<Arguments> incomplete() {
        return Stream.of(
                Arguments.of(Map.of("JSPIN_RANK", "0", "JSPIN_SIZE", "2", "JSPIN_SECRET", SECRET, "JSPIN_RENDEZVOUS", "h:1"),
                        "JSPIN_JOB is not set"),
                Arguments.of(Map.of("JSPIN_RANK", "5", "JSPIN_SIZE", "2", "JSPIN_JOB", "j", "JSPIN_SECRET", SECRET,
                        "JSPIN_RENDEZVOUS", "h:1"), "JSPIN_RANK=5 is outside the job's [0, 2)"),
                Arguments.of(Map.of("JSPIN_RANK", "x", "JSPIN_SIZE", "2"), "JSPIN_RANK must be a rank (an integer), got 'x'"),
                Arguments.of(Map.of("JSPIN_RANK", "0", "JSPIN_SIZE", "-2"), "JSPIN_SIZE must be a positive integer, got '-2'"),
                Arguments.of(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2"), "JSPIN_RENDEZVOUS is not set"),
                Arguments.of(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "JSPIN_RENDEZVOUS", "h:1"),
                        "JSPIN_SECRET is not set"),
                Arguments.of(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2", "JSPIN_RENDEZVOUS", "h:1",
                        "JSPIN_SECRET", "short"), "the job secret must have"),
                Arguments.of(Map.of("PMI_FD", "notanfd", "PMI_RANK", "0", "PMI_SIZE", "2"), "PMI_FD"));
    }

    @ParameterizedTest
    @MethodSource("incomplete")
    void anIncompleteLauncherEnvironmentFailsLoudlyNamingWhatIsMissing(Map<String, String> vars, String message) {
        MpiException e = assertThrows(MpiException.class, () -> env.detect(vars));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertTrue(e.errorClass() == ErrorClass.ERR_OTHER || e.errorClass() == ErrorClass.ERR_ARG, e.toString());
    }

    @Test
    void aLauncherNobodyUnderstandsIsAnErrorNotAWorldOfOne() {
        MpiException e = assertThrows(MpiException.class,
                () -> Launches.detect(Map.of("PMI_RANK", "1", "PMI_SIZE", "4")));
        assertTrue(e.getMessage().contains("PMI_SIZE=4"), e.getMessage());
        assertTrue(Launches.detect(Map.of("PMI_RANK", "0", "PMI_SIZE", "1")).isEmpty(), "a job of one may run alone");
    }
}
