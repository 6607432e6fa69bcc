package org.acme.logic;

public class UpdateByEmail {
    public String email;
    public String name;
}
