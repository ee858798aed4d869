package org.jspin.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;

import org.jspin.transport.netty.join.LaunchEnvironment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which fabric a launcher's job joins with the shm fabric on the class path: shm only when every rank is on this host. */
class LaunchChoiceTest {
    @ParameterizedTest(name = "{0} {1}={2}, {3} ranks: {4}")
    @CsvSource({
            "jspin, -, -, 4, shm",
            "jspin, -, -, 1, netty",
            "hydra, MPI_LOCALNRANKS, 4, 4, shm",
            "hydra, MPI_LOCALNRANKS, 2, 4, netty",
            "hydra, -, -, 4, netty",
            "ompi, OMPI_COMM_WORLD_LOCAL_SIZE, 2, 2, shm",
            "ompi, OMPI_COMM_WORLD_LOCAL_SIZE, 1, 2, netty",
            "slurm, SLURM_NNODES, 1, 4, shm",
            "slurm, SLURM_JOB_NUM_NODES, 1, 4, shm",
            "slurm, SLURM_NNODES, 2, 4, netty",
            "slurm, -, -, 4, netty"})
    void shmOnlyWhenTheLauncherSaysEveryRankIsOnThisHost(String launcher, String variable, String value, int size,
                                                       String fabric) {
        Map<String, String> env = new HashMap<>();
        if (!variable.equals("-")) {
            env.put(variable, value);
        }
        assertEquals(fabric, LaunchEnvironment.fabric(env, launcher, size));
    }
}
