package org.acme.logic;

public final class Requests {
    public static class UpdateById {
        public long id;
        public String name;
    }
}
