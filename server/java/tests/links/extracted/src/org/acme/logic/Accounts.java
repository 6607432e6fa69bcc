package org.acme.logic;

import java.util.HashMap;
import java.util.Map;

/** Overloads told apart only by their parameter's type. */
public class Accounts {
    private final Map<String, String> byEmail = new HashMap<>();
    private final Map<Long, String> byId = new HashMap<>();

    public void update(UpdateByEmail request) {
        byEmail.put(request.email, request.name);
    }

    public void update(Requests.UpdateById request) {
        byId.put(request.id, request.name);
    }
}
