package org.jspin.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;

import org.jspin.transport.netty.join.LaunchEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a launcher's job joins with, the shm fabric on the class path: shm whenever there is more
 * than one rank, joined through rings alone when the launcher says every rank is on this host, and
 * finding out which ranks share a host as they join otherwise.
 */
class LaunchChoiceTest {
    @Test
    void shmForEveryJobOfMoreThanOneRank() {
        assertEquals("shm", LaunchEnvironment.fabric(4));
        assertEquals("shm", LaunchEnvironment.fabric(2));
        assertEquals("netty", LaunchEnvironment.fabric(1));
    }

    @ParameterizedTest(name = "{0} {1}={2}, {3} ranks: one host {4}")
    @CsvSource({
            "jspin, -, -, 4, true",
            "hydra, MPI_LOCALNRANKS, 4, 4, true",
            "hydra, MPI_LOCALNRANKS, 2, 4, false",
            "hydra, -, -, 4, false",
            "ompi, OMPI_COMM_WORLD_LOCAL_SIZE, 2, 2, true",
            "ompi, OMPI_COMM_WORLD_LOCAL_SIZE, 1, 2, false",
            "slurm, SLURM_NNODES, 1, 4, true",
            "slurm, SLURM_JOB_NUM_NODES, 1, 4, true",
            "slurm, SLURM_NNODES, 2, 4, false",
            "slurm, -, -, 4, false"})
    void oneHostOnlyWhenTheLauncherSaysEveryRankIsOnThisHost(String launcher, String variable, String value, int size,
                                                          boolean oneHost) {
        Map<String, String> env = new HashMap<>();
        if (!variable.equals("-")) {
            env.put(variable, value);
        }
        assertEquals(oneHost, LaunchEnvironment.oneHost(env, launcher, size));
    }
}
