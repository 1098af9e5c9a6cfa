/*
 * parity.cc - the C++ program of the GDB parity suite
 * (tests/console/test-gdb-parity.sh): a namespace, a class hierarchy with
 * a virtual function, an operator, overloads, a function template, a
 * reference, a recursive function taking a reference, and the standard
 * library's std::vector and std::string (GDB's pretty printers). Lines
 * the script names carry "mark:NAME"; every line of output starts with
 * "out: ".
 *
 *   ./parity-cxx    or    mpiexec -n 1 ./parity-cxx
 */
#include <mpi.h>
#include <cstdio>
#include <string>
#include <vector>

namespace geo {

struct Vec {
    double x, y;
    Vec operator+(const Vec &o) const
    {
        return Vec{x + o.x, y + o.y}; /* mark:plus */
    }
    double dot(const Vec &o) const { return x * o.x + y * o.y; }
};

class Shape {
public:
    explicit Shape(const char *name) : name_(name) {}
    virtual ~Shape() {}
    virtual double area() const = 0;
    const char *name() const { return name_; }

protected:
    const char *name_;
};

class Rect : public Shape {
public:
    Rect(double w, double h) : Shape("rect"), w_(w), h_(h) {}
    double area() const override
    {
        return w_ * h_; /* mark:area */
    }

private:
    double w_, h_;
};

} // namespace geo

template <typename T> T twice(T v)
{
    return v + v; /* mark:twice */
}

int scale(int v) { return v * 3; }
double scale(double v) { return v * 1.5; }

int descend(const geo::Vec &v, int n)
{
    if (n == 0)
        return (int)v.x; /* mark:bottom */
    return descend(v, n - 1) + 1;
}

int main(int argc, char **argv)
{
    int rank = -1, sum = 0, t = 0, d = 0;
    double ar = 0, t2 = 0, dot = 0;
    geo::Vec a{1.5, 2.0}, b{0.5, -1.0}, c{0, 0};
    geo::Rect r(3.0, 4.0);
    geo::Shape *s = &r;
    std::vector<int> v{1, 2, 3};
    std::string str("parity++");
    int &ref = sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* mark:rank */
    c = a + b;                            /* mark:add */
    ar = s->area();
    t = twice(21);
    t2 = twice(1.25);
    d = descend(c, 3);                    /* mark:descend */
    dot = a.dot(b);
    MPI_Allreduce(&t, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ref += d;                             /* mark:after */
    v.push_back(sum);
    std::printf("out: rank %d: sum %d area %g t2 %g dot %g size %zu %s %s\n",
                rank, sum, ar, t2, dot, v.size(), str.c_str(), s->name());
    std::fflush(stdout);
    MPI_Finalize();
    return 0;
}
