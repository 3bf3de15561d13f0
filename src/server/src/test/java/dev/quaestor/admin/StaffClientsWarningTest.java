package dev.quaestor.admin;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.runtime.LaunchMode;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A production start that lets any client's token call the staff APIs says so; one that names the clients, or dev, does not. */
class StaffClientsWarningTest {

    @Test
    void onlyAProductionStartWithoutStaffClientsIsWarned() {
        String warned = StaffClientsWarning.of(Optional.empty(), LaunchMode.NORMAL);
        assertTrue(warned != null && warned.contains("QUAESTOR_ADMIN_STAFF_CLIENTS") && warned.contains("any OAuth client"), warned);
        assertTrue(StaffClientsWarning.of(Optional.of(Set.of()), LaunchMode.NORMAL) != null, "an empty list names no client");
        assertNull(StaffClientsWarning.of(Optional.of(Set.of("quaestor-audit-cli")), LaunchMode.NORMAL));
        assertNull(StaffClientsWarning.of(Optional.empty(), LaunchMode.DEVELOPMENT));
        assertNull(StaffClientsWarning.of(Optional.empty(), LaunchMode.TEST));
    }
}
