package shop;

/** Two overloads that fit the signature equally well, two fields of the required interface. */
public class Pricing {
    private ITax first;
    private ITax second;

    public int price(int amount) {
        return first.rate(amount);
    }

    public int price(String code) {
        return second.rate(code.length());
    }
}
