package org.acme.logic;

import java.util.ArrayList;
import java.util.List;

public class Roster {
    private final List<String> names = new ArrayList<>();

    public void addMember(String name, int age) {
        if (age >= 0) {
            names.add(name);
        }
    }

    public List<String> searchMembers(String query) {
        List<String> found = new ArrayList<>();
        for (String n : names) {
            if (n.contains(query)) {
                found.add(n);
            }
        }
        return found;
    }

    int size() {
        return names.size();
    }
}
