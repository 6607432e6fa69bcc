package org.acme.logic;

import java.util.List;

/** The package's facade: named like the package's last segment, as a trap for name matching. */
public class Logic {
    private final Roster roster = new Roster();

    public List<String> searchMembers(String query) {
        return roster.searchMembers(query);
    }

    public int countMembers() {
        return roster.size();
    }
}
